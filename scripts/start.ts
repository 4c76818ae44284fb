/**
 * `npm start`: builds the app, starts the local devnet on 127.0.0.1:3999 and the production server on
 * 127.0.0.1:4173 (src/server/): the app, and its push relay under /relay following the devnet (data in
 * ./relay-data), on one origin; the app's testnet addresses point at the devnet and its relay setting is prefilled.
 * Ctrl-C stops all three (one process).
 */
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { startDevnet } from '../mocks/devnet/server.ts';
import { readServerConfig } from '../src/server/server-config.ts';
import { startServer } from '../src/server/start-server.ts';

const DEVNET_PORT = Number(process.env['DEVNET_PORT'] ?? 3999);
const APP_PORT = Number(process.env['APP_PORT'] ?? 4173);
const BLOCK_MS = Number(process.env['DEVNET_BLOCK_MS'] ?? 5000);

await build({ logLevel: 'warn' });
const devnet = await startDevnet({ port: DEVNET_PORT, blockMs: BLOCK_MS, activity: true });
// RELAY_DATA_DIR, DATABASE_URL and RELAY_PUSH_ALLOW (a local push service stand-in) apply as for `npm run relay`.
const config = readServerConfig(
  ['--port', String(APP_PORT), '--testnet-node', devnet.url, '--app-origins', `http://127.0.0.1:${APP_PORT}`],
  process.env,
  fileURLToPath(new URL('../dist/', import.meta.url)),
);
const server = await startServer(config, { devnet: devnet.url });

console.log(`\n  Stacks Watch   ${server.url}/`);
console.log(
  `  Local devnet   ${devnet.url}  (a block every ${BLOCK_MS / 1000} s; demo accounts at ${devnet.url}/devnet/accounts)`,
);
console.log(`  Push relay     ${server.url}/relay  (${server.relay?.db.kind}; alerts while the app is closed)`);
console.log('\n  Press Ctrl-C to stop all three.\n');

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled([server.close(), devnet.close()]);
  process.exit(0);
}
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
