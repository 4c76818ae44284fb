import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readServerConfig } from '../../src/server/server-config.ts';
import { publishNodes } from '../../src/server/published-nodes.ts';
import { asReplaced, envBlocksOf, environmentOf, readUnit } from '../support/guide-settings.ts';

/**
 * systemd does not run where the tests run, so the service unit is checked as text and against the server's own
 * reading of its settings: what it runs, as whom, where its data goes, when it is restarted, and that the settings
 * docs/self-hosting.md puts in its environment file are read as the guide says. The same for the template unit of
 * several instances on one PostgreSQL and docs/relay-at-scale.md's recipe.
 */
const guide = readFileSync('docs/self-hosting.md', 'utf8');
const scaleGuide = readFileSync('docs/relay-at-scale.md', 'utf8');
const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string> };

const settings = readUnit('deploy/stacks-watch.service');
const one = (key: string): string | undefined => settings.get(key)?.at(-1);
const unitEnvironment = environmentOf(settings);

const envBlocks = envBlocksOf(guide);

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
    const config = readServerConfig([], { ...unitEnvironment, ...asReplaced(guideFile!) }, '/opt/stacks-watch/dist');
    expect(config.publicUrl).toBe('https://watch.yourdomain.org');
    expect(config.relay?.vapidSubject).toBe('mailto:you@yourdomain.org');
    expect(config.relay?.dataDir).toBe('/var/lib/stacks-watch');
    expect(config.relay?.trustedProxies?.check('127.0.0.1')).toBe(true);
  });
});

describe('the template unit for several instances on one PostgreSQL (docs/relay-at-scale.md)', () => {
  const template = readUnit('deploy/stacks-watch@.service');
  const own = (key: string): string | undefined => template.get(key)?.at(-1);
  /** What systemd gives instance 2 (`stacks-watch@2`): each `%i` its number. */
  const instance = (number: string): Record<string, string> =>
    Object.fromEntries(
      Object.entries(environmentOf(template)).map(([name, value]) => [name, value.replaceAll('%i', number)]),
    );
  const recipeFile = envBlocksOf(scaleGuide).find((block) => 'DATABASE_URL' in block);

  it("is the one-instance unit, but for each instance's name, port and data directory, and PostgreSQL first", () => {
    const differing = new Set(['Description', 'After', 'StateDirectory', 'Environment']);
    expect([...template.keys()].sort()).toEqual([...settings.keys()].sort());
    for (const [key, values] of settings)
      if (!differing.has(key)) expect([key, template.get(key)]).toEqual([key, values]);
    expect(own('After')).toBe('network-online.target postgresql.service');
    expect(environmentOf(template)['NODE_ENV']).toBe(unitEnvironment['NODE_ENV']);
  });

  it('keeps each instance in a state directory of its own, mode 700, and tells the server so', () => {
    expect(own('StateDirectory')).toBe('stacks-watch/%i');
    expect(own('StateDirectoryMode')).toBe('0700');
    expect(instance('2')['RELAY_DATA_DIR']).toBe('/var/lib/stacks-watch/2');
  });

  it('is restarted after a crash, never after a start refused (exit 2)', () => {
    expect(own('Restart')).toBe('on-failure');
    expect(own('RestartPreventExitStatus')).toBe('2');
    expect(own('ExecStart')).toBe(`/usr/bin/node ${packageJson.bin['stacks-watch']}`);
    expect(own('User')).toBe('stacks-watch');
  });

  it("reads the recipe's environment file as the recipe says, each instance under its own name and port", () => {
    expect(recipeFile).toBeDefined();
    expect(own('EnvironmentFile')).toBe('/etc/stacks-watch.env');
    // As written, the contact is the recipe's placeholder, which the server refuses (the recipe says to replace it).
    expect(() => readServerConfig([], { ...instance('2'), ...recipeFile }, 'dist')).toThrow(
      /"mailto:you@example\.com" names no one.*Set --vapid-subject \(RELAY_VAPID_SUBJECT\)/,
    );
    expect(scaleGuide).toContain("replace `watch.example.com` with your server's name and `you@example.com` with");
    const config = readServerConfig([], { ...instance('2'), ...asReplaced(recipeFile!) }, '/opt/stacks-watch/dist');
    expect(config.port).toBe(8082);
    expect(config.publicUrl).toBe('https://watch.yourdomain.org');
    expect(config.relay).toMatchObject({
      instance: 'watch-2',
      dataDir: '/var/lib/stacks-watch/2',
      databaseUrl: recipeFile!['DATABASE_URL'],
      vapidSubject: 'mailto:you@yourdomain.org',
    });
    expect(config.relay?.trustedProxies?.check('127.0.0.1')).toBe(true);
    expect(readServerConfig([], { ...instance('3'), ...asReplaced(recipeFile!) }, 'dist').relay?.instance).toBe(
      'watch-3',
    );
  });

  it('logs in over the Unix socket as the role the recipe creates, to the database that role owns', () => {
    const url = new URL(recipeFile!['DATABASE_URL']!);
    const role = url.searchParams.get('user');
    const database = url.pathname.slice(1);
    // The role is the units' user: PostgreSQL's peer rule for local connections lets it in without a password.
    expect(role).toBe(own('User'));
    expect(url.searchParams.get('host')).toBe('/run/postgresql');
    expect(scaleGuide).toContain(`sudo -u postgres createuser ${role}\n`);
    expect(scaleGuide).toContain(`sudo -u postgres createdb --owner ${role} ${database}\n`);
    // The system user and the build are the one-instance guide's, and the unit is the one this test reads.
    expect(scaleGuide).toContain('sudo useradd --system --no-create-home --shell /usr/sbin/nologin stacks-watch');
    expect(scaleGuide).toContain("git clone <the repository's URL> /opt/stacks-watch && cd /opt/stacks-watch");
    expect(scaleGuide).toContain('sudo cp deploy/stacks-watch@.service /etc/systemd/system/');
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
