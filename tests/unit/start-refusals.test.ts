import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAllowedOrigins, refuseEndpoint } from '../../src/relay/api/push-endpoint.ts';
import { readConfig } from '../../src/relay/config.ts';
import { loadVapidKeys } from '../../src/relay/push/vapid.ts';
import { startFailure, StartRefusal } from '../../src/relay/start-failure.ts';

const errno = (code: string, more: Record<string, unknown> = {}) =>
  Object.assign(new Error(`${code}: something`), { code, ...more });

describe('a failed start, said in one line with the exit code a supervisor acts on', () => {
  it('refuses (exit 2) what only the operator can change, naming the file or the setting', () => {
    expect(startFailure(new StartRefusal('vapid.json is not JSON'))).toEqual({
      line: 'vapid.json is not JSON',
      exitCode: 2,
    });
    const unwritable = startFailure(errno('EACCES', { syscall: 'mkdir', path: '/data/pgdata' }));
    expect(unwritable.exitCode).toBe(2);
    expect(unwritable.line).toMatch(/^cannot write \/data\/pgdata \(EACCES\): the data directory \(--data-dir/);
    expect(startFailure(errno('EADDRNOTAVAIL', { address: '10.9.9.9', port: 80 })).exitCode).toBe(2);
    const password = Object.assign(new Error('password authentication failed for user "relay"'), {
      code: '28P01',
      severity: 'FATAL',
    });
    expect(startFailure(password)).toEqual({
      line: 'PostgreSQL refused the connection: password authentication failed for user "relay" (check --database-url, DATABASE_URL)',
      exitCode: 2,
    });
  });

  it('lets a supervisor try again (exit 1) when a later start may pass', () => {
    const taken = startFailure(errno('EADDRINUSE', { syscall: 'listen', address: '127.0.0.1', port: 8080 }));
    expect(taken).toEqual({
      line: '127.0.0.1:8080 is in use by another process (EADDRINUSE): stop it or choose another port',
      exitCode: 1,
    });
    expect(startFailure(errno('ECONNREFUSED'))).toEqual({ line: 'ECONNREFUSED: something', exitCode: 1 });
    expect(startFailure('odd')).toEqual({ line: 'odd', exitCode: 1 });
  });
});

describe('vapid.json that holds no key pair', () => {
  let dir: string;
  beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'vapid-'))));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([
    ['{"publicKey": "BP', /vapid\.json is not JSON \(.+\): restore it from a backup/],
    ['{"publicKey": 1}', /vapid\.json holds no VAPID key pair/],
    ['null', /vapid\.json holds no VAPID key pair/],
  ])('refuses %j, naming the file', async (text, said) => {
    await writeFile(join(dir, 'vapid.json'), text);
    const refused = await loadVapidKeys(dir, 'mailto:a@b.org').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StartRefusal);
    expect((refused as Error).message).toContain(join(dir, 'vapid.json'));
    expect((refused as Error).message).toMatch(said);
  });
});

describe('settings refused before anything connects', () => {
  it.each([
    ['mysql://u:secret@127.0.0.1/db', 'got a mysql: URL'],
    ['not a url', 'the value given is not a URL'],
    ['postgres:///relay', 'the URL names no host'],
  ])('DATABASE_URL %j: names the setting, never the password', (url, why) => {
    const read = () => readConfig([], { DATABASE_URL: url });
    expect(read).toThrow(`--database-url (DATABASE_URL) must be a PostgreSQL URL`);
    expect(read).toThrow(why);
    expect(read).not.toThrow(/secret/);
  });

  it('takes a postgres:// or postgresql:// URL, a Unix socket too', () => {
    for (const url of [
      'postgres://relay:pw@127.0.0.1:5432/relay',
      'postgresql://relay@localhost/relay',
      'postgres:///relay?host=/run/postgresql',
    ])
      expect(readConfig([], { DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it.each(['ftp://push.example.org', 'https://*.example.org', 'garbage', 'http://localhost:8990/path'])(
    '--push-allow %j: names the setting and what is expected',
    (entry) => {
      expect(() => readAllowedOrigins(entry, '--push-allow (RELAY_PUSH_ALLOW)')).toThrow(
        `--push-allow (RELAY_PUSH_ALLOW) entry "${entry}" must be an http(s) origin such as http://localhost:8990`,
      );
    },
  );

  it('takes http(s) origins, IPv6 ones too', () => {
    expect(readAllowedOrigins('http://localhost:8990/, https://[::1]:9000', 'x')).toEqual([
      'http://localhost:8990',
      'https://[::1]:9000',
    ]);
  });

  it('takes a host with "_" in its labels (a container or internal host name), and sends to it', () => {
    const allowed = readConfig([], { RELAY_PUSH_ALLOW: 'http://push_stand_in:8990,https://eu_1.push.internal' });
    expect(allowed.pushAllow).toEqual(['http://push_stand_in:8990', 'https://eu_1.push.internal']);
    expect(refuseEndpoint('http://push_stand_in:8990/notify/abc', allowed.pushAllow)).toBeNull();
    expect(refuseEndpoint('https://eu_1.push.internal/send/abc', allowed.pushAllow)).toBeNull();
    // Still a whole host: no empty label, no label that starts or ends with "-".
    for (const entry of ['http://push_stand_in..internal', 'http://-push.internal', 'http://push-.internal'])
      expect(() => readAllowedOrigins(entry, '--push-allow (RELAY_PUSH_ALLOW)')).toThrow(`entry "${entry}" must be`);
  });
});
