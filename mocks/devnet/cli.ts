/**
 * `npm run devnet`: the local Stacks node stand-in on 127.0.0.1:3999.
 * Options: --port N, --host H, --seed S, --block-ms N (0 pauses auto-mining), --quiet-chain (no demo activity).
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SEED } from './node.ts';
import { startDevnet } from './server.ts';

const USAGE = `npm run devnet -- [options]
  --port N         where it listens (default 3999, or DEVNET_PORT)
  --host H         the address it binds (default 127.0.0.1)
  --seed S         the seed its accounts and activity come from
  --block-ms N     a block every N ms; 0 mines one per request
  --quiet-chain    no demo activity between the accounts
  --help           this text`;

let parsed;
try {
  parsed = parseArgs({
    options: {
      port: { type: 'string', default: process.env['DEVNET_PORT'] ?? '3999' },
      host: { type: 'string', default: '127.0.0.1' },
      seed: { type: 'string', default: DEFAULT_SEED },
      'block-ms': { type: 'string', default: '5000' },
      'quiet-chain': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
} catch (error) {
  console.error(`devnet: ${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
const { values } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

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
