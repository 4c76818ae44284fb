/**
 * `npm start`: builds the app, starts the local devnet on 127.0.0.1:3999, the push relay on 127.0.0.1:3990 (following
 * the devnet, data in ./relay-data) and serves the app on 127.0.0.1:4173, its testnet addresses pointed at the devnet
 * and its relay setting prefilled. Ctrl-C stops all three.
 */
import { build } from 'vite';
import { startDevnet } from '../mocks/devnet/server.ts';
import { readConfig } from '../src/relay/config.ts';
import { startRelay } from '../src/relay/relay.ts';
import { serveApp } from './serve-app.ts';

const DEVNET_PORT = Number(process.env['DEVNET_PORT'] ?? 3999);
const APP_PORT = Number(process.env['APP_PORT'] ?? 4173);
const BLOCK_MS = Number(process.env['DEVNET_BLOCK_MS'] ?? 5000);

await build({ logLevel: 'warn' });
const devnet = await startDevnet({ port: DEVNET_PORT, blockMs: BLOCK_MS, activity: true });
// RELAY_PORT, RELAY_DATA_DIR, DATABASE_URL and RELAY_PUSH_ALLOW (a local push service stand-in) apply as for `npm run relay`.
const relay = await startRelay(
  readConfig(['--testnet-node', devnet.url, '--app-origins', `http://127.0.0.1:${APP_PORT}`], process.env),
);
const app = await serveApp({
  port: APP_PORT,
  runtimeConfig: { devnet: { url: devnet.url }, relay: { url: relay.url } },
});

console.log(`\n  Stacks Watch   ${app.url}/`);
console.log(
  `  Local devnet   ${devnet.url}  (a block every ${BLOCK_MS / 1000} s; demo accounts at ${devnet.url}/devnet/accounts)`,
);
console.log(`  Push relay     ${relay.url}  (${relay.db.kind}; alerts while the app is closed)`);
console.log('\n  Press Ctrl-C to stop all three.\n');

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled([app.close(), relay.close(), devnet.close()]);
  process.exit(0);
}
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
