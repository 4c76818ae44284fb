import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readServerConfig } from '../../src/server/server-config.ts';
import { publishNodes } from '../../src/server/published-nodes.ts';

/**
 * systemd does not run where the tests run, so the service unit is checked as text and against the server's own
 * reading of its settings: what it runs, as whom, where its data goes, when it is restarted, and that the settings
 * docs/self-hosting.md puts in its environment file are read as the guide says.
 */
const unit = readFileSync('deploy/stacks-watch.service', 'utf8');
const guide = readFileSync('docs/self-hosting.md', 'utf8');
const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string> };

/** Each `Key=value` of the unit, every value a key is given, comments left out. */
const settings = new Map<string, string[]>();
for (const line of unit.split('\n')) {
  const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
  if (match) settings.set(match[1]!, [...(settings.get(match[1]!) ?? []), match[2]!]);
}
const one = (key: string): string | undefined => settings.get(key)?.at(-1);

/** The environment the unit gives the server (its Environment= lines). */
const unitEnvironment = Object.fromEntries(
  (settings.get('Environment') ?? []).flatMap((line) =>
    line.split(/\s+/).map((pair) => pair.split(/=(.*)/s, 2) as [string, string]),
  ),
);

/** The guide's environment-file blocks: code blocks made only of NAME=value lines. */
const envBlocks = [...guide.matchAll(/```sh\n([\s\S]*?)\n```/g)]
  .map(([, body]) => body!.split('\n'))
  .filter((lines) => lines.every((line) => /^[A-Z_]+=\S+$/.test(line)))
  .map((lines) => Object.fromEntries(lines.map((line) => line.split(/=(.*)/s, 2) as [string, string])));

describe('the systemd service unit', () => {
  it('runs node itself on the compiled server the package names as its bin, from the clone the guide builds', () => {
    expect(one('ExecStart')).toBe(`/usr/bin/node ${packageJson.bin['stacks-watch']}`);
    expect(one('WorkingDirectory')).toBe('/opt/stacks-watch');
    expect(guide).toContain("git clone <the repository's URL> /opt/stacks-watch && cd /opt/stacks-watch");
    expect(guide).toContain('npm ci && npm run build');
  });

  it('runs as the dedicated user the guide creates, never root, without privileges', () => {
    expect(one('User')).toBe('stacks-watch');
    expect(guide).toContain('sudo useradd --system --no-create-home --shell /usr/sbin/nologin stacks-watch');
    expect(one('NoNewPrivileges')).toBe('yes');
    expect(one('CapabilityBoundingSet')).toBe('');
    // V8 writes the machine code it runs: with this, node does not start.
    expect(settings.has('MemoryDenyWriteExecute')).toBe(false);
  });

  it('keeps its data in the state directory systemd makes for it, mode 700, and tells the server so', () => {
    expect(one('StateDirectory')).toBe('stacks-watch');
    expect(one('StateDirectoryMode')).toBe('0700');
    expect(unitEnvironment['RELAY_DATA_DIR']).toBe('/var/lib/stacks-watch');
    expect(one('ProtectSystem')).toBe('strict');
  });

  it('is restarted after a crash, not after a setting refused at start (which exits 2)', async () => {
    expect(one('Restart')).toBe('on-failure');
    expect(one('RestartPreventExitStatus')).toBe('2');
    const refused = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/server/main.ts', '--port', 'eighty'],
      { env: { PATH: process.env['PATH'] ?? '' } },
    ).then(
      () => 0,
      (error: { code?: number }) => error.code,
    );
    expect(refused).toBe(2);
  });

  it("reads the guide's environment file as the guide says", () => {
    expect(one('EnvironmentFile')).toBe('/etc/stacks-watch.env');
    const guideFile = envBlocks.find((block) => 'STACKS_WATCH_PUBLIC_URL' in block);
    expect(guideFile).toBeDefined();
    // As written, the contact is the guide's placeholder, which the server refuses (the guide says to replace it).
    expect(() => readServerConfig([], { ...unitEnvironment, ...guideFile }, 'dist')).toThrow(
      /"mailto:you@example\.com" names no one.*Set --vapid-subject \(RELAY_VAPID_SUBJECT\)/,
    );
    // example.com replaced by the reader's own domain, as the guide says.
    const file = Object.fromEntries(
      Object.entries(guideFile!).map(([name, value]) => [name, value.replace('example.com', 'yourdomain.org')]),
    );
    const config = readServerConfig([], { ...unitEnvironment, ...file }, '/opt/stacks-watch/dist');
    expect(config.publicUrl).toBe('https://watch.yourdomain.org');
    expect(config.relay?.vapidSubject).toBe('mailto:you@yourdomain.org');
    expect(config.relay?.dataDir).toBe('/var/lib/stacks-watch');
    expect(config.relay?.trustedProxies?.check('127.0.0.1')).toBe(true);
  });
});

describe("the guide's recipe: my node for testnet, Hiro's public API for mainnet", () => {
  const recipe = envBlocks.find((block) => 'RELAY_TESTNET_NODE' in block && 'RELAY_MAINNET_NODE' in block);

  it('follows both networks, its own node fast, Hiro under the public budget', () => {
    expect(recipe).toBeDefined();
    const config = readServerConfig([], { ...recipe }, 'dist');
    expect(config.relaySettings.nodes.testnet).toMatchObject({ url: 'http://127.0.0.1:3999', apiKey: null });
    expect(config.relaySettings.nodes.testnet?.limits.perMinute).toBe(6000);
    expect(config.relaySettings.nodes.mainnet).toMatchObject({ url: 'https://api.mainnet.hiro.so', apiKey: null });
    expect(config.relaySettings.nodes.mainnet?.limits.perMinute).toBe(24);
  });

  it('hands the phones no loopback node: both networks keep the app defaults, and it says so at start', () => {
    const config = readServerConfig([], { ...recipe }, 'dist');
    const published = publishNodes({
      followed: { testnet: 'http://127.0.0.1:3999', mainnet: 'https://api.mainnet.hiro.so' },
      named: config.publicNodes,
      appOrigin: 'https://watch.example.com',
    });
    expect(published.nodes).toEqual({});
    expect(published.warnings).toEqual([
      expect.stringMatching(/^the testnet node the relay follows, http:\/\/127\.0\.0\.1:3999, is not given to the app/),
    ]);
    const named = publishNodes({
      followed: { testnet: 'http://127.0.0.1:3999', mainnet: 'https://api.mainnet.hiro.so' },
      named: readServerConfig(
        [],
        { ...recipe, STACKS_WATCH_PUBLIC_TESTNET_NODE: 'https://testnet-node.example.com' },
        'dist',
      ).publicNodes,
      appOrigin: 'https://watch.example.com',
    });
    expect(named.nodes).toEqual({ testnet: 'https://testnet-node.example.com' });
  });
});
