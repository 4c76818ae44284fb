import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { c32address } from 'c32check';
import { io, type Socket } from 'socket.io-client';

export interface DevnetLoadFigures {
  readonly subscribedAddresses: number;
  readonly targetTxPerSecond: number;
  readonly seconds: number;
  readonly submitted: number;
  readonly achievedTxPerSecond: number;
  readonly submitLatencyMs: { p50: number; p95: number; max: number };
  /** `block` event received → the recipient's `address-transaction` received, per transaction. */
  readonly deliveryLagMs: { p50: number; p95: number; max: number };
  readonly delivered: number;
  readonly duplicates: number;
  readonly missing: number;
  readonly devnetCpuPercent: number;
  readonly devnetRssMb: number;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN) * 10) / 10;
};
const summary = (values: number[]) => ({
  p50: quantile(values, 0.5),
  p95: quantile(values, 0.95),
  max: quantile(values, 1),
});

function startDevnetProcess(blockMs: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'mocks/devnet/cli.ts', '--port', '0', '--block-ms', String(blockMs), '--quiet-chain'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const url = /at (http:\/\/[\d.]+:\d+)/.exec(chunk.toString())?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`the devnet exited with ${code}`)));
  });
}

const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

export interface DevnetLoadOptions {
  readonly addresses: number;
  readonly txPerSecond: number;
  readonly seconds: number;
  readonly connections: number;
}

/** `addresses` subscribed addresses on a few connections, `txPerSecond` transfers a second to them, blocks every second. */
export async function measureDevnetLoad(options: DevnetLoadOptions): Promise<DevnetLoadFigures> {
  const { child, url } = await startDevnetProcess(1000);
  const sockets: Socket[] = [];
  try {
    const accounts = (await (await fetch(`${url}/devnet/accounts`)).json()) as { address: string; kind: string }[];
    const senders = accounts.filter((account) => account.kind !== 'contract').map((account) => account.address);
    const recipients = Array.from({ length: options.addresses }, (_, n) =>
      c32address(26, `c${n.toString(16).padStart(39, '0')}`),
    );

    const blockSeen = new Map<number, number>();
    const deliveries = new Map<string, number>();
    const lags: number[] = [];
    const perConnection = Math.ceil(recipients.length / options.connections);
    for (let c = 0; c < options.connections; c++) {
      const socket = io(url, { transports: ['websocket'], query: { subscriptions: c === 0 ? 'block' : '' } });
      sockets.push(socket);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const mine = recipients.slice(c * perConnection, (c + 1) * perConnection);
      const topics = mine.flatMap((address) => [`address-transaction:${address}`, `address-stx-balance:${address}`]);
      await new Promise<void>((resolve) => socket.emit('subscribe', topics, () => resolve()));
      socket.on('block', (block: { height: number }) => blockSeen.set(block.height, performance.now()));
      socket.onAny((event: string, _address: unknown, payload: { tx?: { tx_id: string; block_height: number } }) => {
        if (!event.startsWith('address-transaction:') || !payload.tx) return;
        const at = performance.now();
        deliveries.set(payload.tx.tx_id, (deliveries.get(payload.tx.tx_id) ?? 0) + 1);
        const seen = blockSeen.get(payload.tx.block_height);
        if (seen !== undefined) lags.push(at - seen);
      });
    }

    const cpuBefore = cpuTicks(child.pid!);
    const started = performance.now();
    const submitted: string[] = [];
    const latencies: number[] = [];
    const total = options.txPerSecond * options.seconds;
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / options.txPerSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const sent = performance.now();
      inFlight.push(
        fetch(`${url}/devnet/transfer`, {
          method: 'POST',
          body: JSON.stringify({
            sender: senders[i % senders.length],
            recipient: recipients[i % recipients.length],
            amount: '1',
          }),
        })
          .then((response) => response.json() as Promise<{ tx_id: string }>)
          .then(({ tx_id }) => {
            latencies.push(performance.now() - sent);
            submitted.push(tx_id);
          }),
      );
    }
    await Promise.all(inFlight);
    const elapsed = (performance.now() - started) / 1000;
    const deadline = performance.now() + 15_000;
    while (submitted.some((id) => !deliveries.has(id)) && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const cpuSeconds = (cpuTicks(child.pid!) - cpuBefore) / 100;
    const wall = (performance.now() - started) / 1000;
    return {
      subscribedAddresses: recipients.length,
      targetTxPerSecond: options.txPerSecond,
      seconds: options.seconds,
      submitted: submitted.length,
      achievedTxPerSecond: Math.round((submitted.length / elapsed) * 10) / 10,
      submitLatencyMs: summary(latencies),
      deliveryLagMs: summary(lags),
      delivered: [...deliveries.keys()].filter((id) => submitted.includes(id)).length,
      duplicates: [...deliveries.values()].filter((count) => count > 1).length,
      missing: submitted.filter((id) => !deliveries.has(id)).length,
      devnetCpuPercent: Math.round((cpuSeconds / wall) * 100),
      devnetRssMb: Math.round(rssMb(child.pid!)),
    };
  } finally {
    sockets.forEach((socket) => socket.disconnect());
    child.kill('SIGTERM');
  }
}
