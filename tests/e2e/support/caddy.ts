import { spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate, createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import { freePort } from '../../relay/harness.ts';
import { trialSiteLines, withUpstream } from '../../support/guide-caddyfile.ts';

export interface RunningCaddy {
  /** The https origin, on the test hostname (the browser maps it to loopback). */
  readonly origin: string;
  readonly port: number;
  /** base64 SHA-256 of each served certificate's public key (leaf, intermediate): what the test profile trusts. */
  readonly spkiHashes: readonly string[];
  close(): Promise<void>;
}

/** Debian's caddy (`apt-get install caddy`, as .ci/run does), or CADDY_PATH. */
export function findCaddy(): string {
  const found = [process.env['CADDY_PATH'], '/usr/bin/caddy', '/usr/local/bin/caddy'].find(
    (path) => path && existsSync(path),
  );
  if (!found) throw new Error('The HTTPS browser test needs Caddy: `sudo apt-get install caddy`, or set CADDY_PATH.');
  return found;
}

/**
 * Caddy in front of `upstream` with the one-machine trial's site block of docs/self-hosting.md (`tls internal`, read
 * from the document), bound to loopback: its own CA, admin endpoint off, its data and config in a temporary folder,
 * ports found free.
 */
export async function startCaddy(hostname: string, upstream: string): Promise<RunningCaddy> {
  const home = await mkdtemp(join(tmpdir(), 'stacks-watch-caddy-'));
  const [httpPort, port] = [await freePort(), await freePort()];
  const caddyfile = `{
	admin off
	skip_install_trust
	storage file_system ${join(home, 'data')}
	http_port ${httpPort}
	https_port ${port}
	auto_https disable_redirects
}

https://${hostname}:${port} {
	bind 127.0.0.1
${withUpstream(await trialSiteLines(), new URL(upstream).host).join('\n')}
}
`;
  await writeFile(join(home, 'Caddyfile'), caddyfile);
  const env = { PATH: process.env['PATH'] ?? '', HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home };
  const child = spawn(findCaddy(), ['run', '--config', join(home, 'Caddyfile'), '--adapter', 'caddyfile'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(home, { recursive: true, force: true });
  };
  try {
    const certificate = await servedCertificate(child, port, hostname, () => log);
    const chain = [certificate, certificate.issuerCertificate].filter(
      (cert, index, all) => cert?.raw && all.findIndex((other) => other?.raw?.equals(cert.raw)) === index,
    );
    const spkiHashes = chain.map((cert) =>
      createHash('sha256')
        .update(new X509Certificate(cert.raw).publicKey.export({ type: 'spki', format: 'der' }))
        .digest('base64'),
    );
    return { origin: `https://${hostname}:${port}`, port, spkiHashes, close: stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Polls the TLS handshake until Caddy serves its internal certificate for `hostname` (issued just after start). */
async function servedCertificate(
  child: ChildProcess,
  port: number,
  hostname: string,
  log: () => string,
): Promise<PeerCertificate & { issuerCertificate: PeerCertificate }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`caddy exited with ${child.exitCode}:\n${log()}`);
    const certificate = await new Promise<PeerCertificate | null>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port, servername: hostname, rejectUnauthorized: false }, () => {
        const peer = socket.getPeerCertificate(true);
        socket.end();
        resolve(peer && peer.raw ? peer : null);
      });
      socket.once('error', () => resolve(null));
    });
    if (certificate && certificate.subjectaltname?.includes(hostname))
      return certificate as PeerCertificate & { issuerCertificate: PeerCertificate };
    if (Date.now() > deadline) throw new Error(`caddy served no certificate for ${hostname}:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
