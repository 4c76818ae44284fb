/**
 * `npm run devnet`: the local Stacks node stand-in on 127.0.0.1:3999.
 * Options: --port N, --host H, --seed S, --block-ms N (0 pauses auto-mining), --quiet-chain (no demo activity).
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SEED } from './node.ts';
import { startDevnet } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env['DEVNET_PORT'] ?? '3999' },
    host: { type: 'string', default: '127.0.0.1' },
    seed: { type: 'string', default: DEFAULT_SEED },
    'block-ms': { type: 'string', default: '5000' },
    'quiet-chain': { type: 'boolean', default: false },
  },
});

const port = Number(values.port);
const blockMs = Number(values['block-ms']);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  throw new Error(`--port must be a port number, not ${values.port}`);
if (!Number.isInteger(blockMs) || blockMs < 0)
  throw new Error(`--block-ms must be a whole number of milliseconds, not ${values['block-ms']}`);

const devnet = await startDevnet({
  host: values.host,
  port,
  seed: values.seed,
  blockMs: blockMs === 0 ? null : blockMs,
  activity: !values['quiet-chain'],
});
console.log(
  `Stacks devnet (seed "${values.seed}") at ${devnet.url}, a block every ${blockMs ? `${blockMs} ms` : 'request'}`,
);
for (const account of devnet.node.chain.accounts.all) console.log(`  ${account.label.padEnd(18)} ${account.address}`);

const stop = () => void devnet.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
