import { relayDataDir } from './pglite-template.ts';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readConfig } from '../../src/relay/config.ts';
import { readServerConfig } from '../../src/server/server-config.ts';
import { startServer } from '../../src/server/start-server.ts';
import { ChildProcesses } from './child-processes.ts';
import type { tempDir } from './harness.ts';
import { waitForLine } from './harness.ts';

/**
 * A server put on an https origin for phones (docs/self-hosting.md) while it follows a node on its own loopback or
 * network: the nodes it follows are not the nodes a phone can use. Started as an operator starts it (the server's
 * entry, from source), and read as the page reads it: the runtime config and the Content Security Policy.
 */
const PUBLIC_URL = 'https://watch.example.com';
const CONTACT = 'mailto:operator@stacks-watch-relay.org';
let devnet: RunningDevnet;
let dir: Awaited<ReturnType<typeof tempDir>>;
const processes = new ChildProcesses();

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  dir = await relayDataDir('https-origin-');
  await writeFile(join(dir.path, 'index.html'), '<!doctype html><title>Stacks Watch</title>');
});

afterAll(async () => {
  processes.killAll();
  await devnet?.close();
  await dir?.remove();
});

const startProcess = (flags: readonly string[]) =>
  processes.start('src/server/main.ts', [
    ...['--root', dir.path, '--port', '0', '--push-threads', '0'],
    ...['--data-dir', join(dir.path, `data-${processes.size}`), ...flags],
  ]);

const connectSrc = (policy: string): string[] =>
  (policy.split('; ').find((directive) => directive.startsWith('connect-src')) ?? '').split(' ').slice(1);

describe('a server on an https origin that follows nodes phones cannot reach', () => {
  it('hands the app none of them, in its config or its policy, and says at start what it publishes instead', async () => {
    const lan = 'http://192.168.1.20:3999';
    const { child, stderr } = startProcess([
      ...['--public-url', PUBLIC_URL, '--vapid-subject', CONTACT],
      ...['--testnet-node', devnet.url, '--mainnet-node', lan],
    ]);
    // Said after the line that it listens, in the same write or a later one.
    await waitForLine(child, 'stderr', /the app is told to use/);
    const url = /listening on (http:\/\/[\d.]+:\d+)/.exec(stderr())![1]!;

    const page = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const allowed = connectSrc(page.headers.get('content-security-policy') ?? '');
    expect(allowed).toContain("'self'");
    expect(allowed.filter((source) => /127\.0\.0\.1|192\.168\.|^http:|^ws:/.test(source))).toEqual([]);

    const config = (await (await fetch(`${url}/stacks-watch-config.json`)).json()) as Record<string, unknown>;
    // No node named: each network keeps the app's default public node; the relay is on the public origin. The nodes
    // the app may be pointed at are the policy's own.
    expect(config).toEqual({
      devnet: null,
      relay: { url: `${PUBLIC_URL}/relay` },
      nodes: {},
      allowedNodes: allowed.filter((source) => /^https?:/.test(source)),
    });

    const said = stderr();
    expect(said).toContain(
      "the app is told to use mainnet → the app's default, https://api.mainnet.hiro.so, testnet → the app's default, https://api.testnet.hiro.so",
    );
    expect(said).toContain(
      `warning: the testnet node the relay follows, ${devnet.url}, is not given to the app opened on ${PUBLIC_URL}: it is plain http`,
    );
    expect(said).toContain(
      `warning: the mainnet node the relay follows, ${lan}, is not given to the app opened on ${PUBLIC_URL}: it is plain http`,
    );
    expect(said).toMatch(/set --public-testnet-node \(STACKS_WATCH_PUBLIC_TESTNET_NODE\) to an https URL/);
    child.kill('SIGTERM');
  });

  it('publishes the node named for the app (--public-testnet-node) while the relay follows its own', async () => {
    const server = await startServer(
      readServerConfig(
        [
          ...['--port', '0', '--no-relay', '--public-url', PUBLIC_URL, '--testnet-node', devnet.url],
          ...['--public-testnet-node', 'https://testnet-node.example.com'],
        ],
        {},
        dir.path,
      ),
    );
    try {
      const config = (await (await fetch(`${server.url}/stacks-watch-config.json`)).json()) as Record<string, unknown>;
      expect(config['nodes']).toEqual({ testnet: { url: 'https://testnet-node.example.com' } });
      const allowed = connectSrc((await fetch(`${server.url}/`)).headers.get('content-security-policy') ?? '');
      expect(allowed).toEqual(
        expect.arrayContaining(['https://testnet-node.example.com', 'wss://testnet-node.example.com']),
      );
      expect(allowed.join(' ')).not.toContain('127.0.0.1');
      expect(server.published.lines).toContain('testnet → https://testnet-node.example.com (--public-testnet-node)');
      expect(server.published.warnings).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('publishes a private-network node only to an app on that network, and a loopback one only on loopback', async () => {
    const lan = 'http://10.1.2.3:3999';
    const onLan = await startServer(
      readServerConfig(
        ['--port', '0', '--no-relay', '--public-url', 'http://192.168.1.5:8080', '--testnet-node', lan],
        {},
        dir.path,
      ),
    );
    const onLoopback = await startServer(
      readServerConfig(['--port', '0', '--no-relay', '--testnet-node', devnet.url], {}, dir.path),
    );
    try {
      const nodesOf = async (url: string) =>
        ((await (await fetch(`${url}/stacks-watch-config.json`)).json()) as Record<string, unknown>)['nodes'];
      expect(await nodesOf(onLan.url)).toEqual({ testnet: { url: lan } });
      // No --public-url: the request's own origin decides (here 127.0.0.1, where the devnet is reachable).
      expect(await nodesOf(onLoopback.url)).toEqual({ testnet: { url: devnet.url } });
    } finally {
      await onLan.close();
      await onLoopback.close();
    }
  });

  it('refuses a node named for the app that the app could not use, saying why and what is expected', () => {
    const read = (node: string) =>
      readServerConfig(['--public-url', PUBLIC_URL, '--no-relay', '--public-testnet-node', node], {}, dir.path);
    expect(() => read('http://node.example.org')).toThrow(
      /--public-testnet-node http:\/\/node\.example\.org is plain http .* could not use it: name an https node phones can reach/,
    );
    expect(() => read('https://127.0.0.1:3999')).toThrow(/is a loopback address \(a phone would ask itself\)/);
    expect(() => read('https://stacks-node:3999')).toThrow(/is a private-network address/);
    expect(() => read('https://node.example.org/api')).toThrow(/must be the node's https origin with no path/);
    expect(() => read('node.example.org')).toThrow(/must be the node's https origin, such as https:\/\//);
  });
});

describe('a relay for an https origin needs a real VAPID contact', () => {
  it('does not start without --vapid-subject, saying why: Apple refuses the default contact', async () => {
    const { exited, stderr } = startProcess(['--public-url', PUBLIC_URL, '--testnet-node', devnet.url]);
    expect(await exited()).toBe(2);
    expect(stderr()).toMatch(
      /stacks-watch: with an https app origin \(--public-url\) the relay needs a real contact for push services: no --vapid-subject \(the default is mailto:relay@localhost\) names no one, and Apple's push service refuses every push signed with it \(403 BadJwtToken\)/,
    );
    expect(stderr()).toMatch(/Set --vapid-subject \(RELAY_VAPID_SUBJECT\) to your mailto: address or an https: page/);
  });

  it('refuses a contact that names no one, takes a real one, and needs none on plain http or without the relay', () => {
    const read = (flags: string[]) =>
      readServerConfig(['--public-url', PUBLIC_URL, '--testnet-node', devnet.url, ...flags], {}, dir.path);
    for (const contact of ['mailto:you@example.com', 'mailto:admin@localhost', 'https://localhost/contact'])
      expect(() => read(['--vapid-subject', contact]), contact).toThrow(`"${contact}" names no one`);
    expect(read(['--vapid-subject', CONTACT]).relay?.vapidSubject).toBe(CONTACT);
    expect(
      readServerConfig(
        ['--public-url', PUBLIC_URL, '--testnet-node', devnet.url],
        {
          RELAY_VAPID_SUBJECT: 'https://stacks-watch-relay.org/contact',
        },
        dir.path,
      ).relay?.vapidSubject,
    ).toBe('https://stacks-watch-relay.org/contact');
    expect(readServerConfig(['--public-url', PUBLIC_URL, '--no-relay'], {}, dir.path).relay).toBeNull();
    expect(readServerConfig(['--public-url', 'http://127.0.0.1:8080'], {}, dir.path).relay?.vapidSubject).toBe(
      'mailto:relay@localhost',
    );
  });

  it('holds for the relay run alone for an app on https (--app-origins)', () => {
    expect(() => readConfig(['--app-origins', PUBLIC_URL], {})).toThrow(
      /with an https app origin \(--app-origins\) the relay needs a real contact/,
    );
    expect(readConfig(['--app-origins', PUBLIC_URL, '--vapid-subject', CONTACT], {}).vapidSubject).toBe(CONTACT);
  });
});
