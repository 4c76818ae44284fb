import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

// The relay bench's processes and measures: the relay started as a process of its own, a loopback push service, and
// what /proc says of a process.

export const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN);
};
/** User + system CPU seconds of a process so far (clock ticks of 1/100 s). */
export const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
export const rssMb = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
export const dirBytes = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (sum, entry) =>
      sum + (entry.isDirectory() ? dirBytes(join(dir, entry.name)) : statSync(join(dir, entry.name)).size),
    0,
  );
export const topicOf = (deviceId: string, alertId: string) =>
  createHash('sha256').update(`${deviceId}|${alertId}`).digest('base64url').slice(0, 32);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A loopback push service: accepts every push (201) and notes when each confirmed one arrived, by topic. A confirmed
 * state lives a day (its TTL 86400 s when sent at once, a little less when sent later), a pending one an hour.
 */
export function pushService(): Promise<{ server: Server; origin: string; confirmedAt: Map<string, number> }> {
  const confirmedAt = new Map<string, number>();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const topic = String(request.headers['topic'] ?? '');
      if (Number(request.headers['ttl']) > 3600 && !confirmedAt.has(topic)) confirmedAt.set(topic, performance.now());
      response.writeHead(201);
      response.end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, confirmedAt }),
    ),
  );
}

export function startRelayProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeFlags: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'src/relay/main.ts', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let said = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const url = /relay listening on (http:\/\/[\d.]+:\d+)/.exec(chunk.toString())?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`the relay exited with ${code}: ${said.slice(-2000)}`)));
  });
}

/**
 * Until the relay follows the devnet live and every principal is past its first sync; with several instances
 * (`devices` given), also until it holds partitions.
 */
export async function waitFollowing(url: string, devices: number | null): Promise<void> {
  await waitFor(async () => {
    const health = (await (await fetch(`${url}/health`)).json()) as {
      networks: { testnet?: { connected: boolean; unsynced: number } };
      instance?: { partitions: number };
    };
    const following = health.networks.testnet?.connected === true && health.networks.testnet.unsynced === 0;
    return following && (devices === null || (health.instance?.partitions ?? 0) > 0);
  }, 600_000);
}

export async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) return;
    await sleep(200);
  }
}
