import { readConfig, USAGE } from './config.ts';
import { createLog } from './log.ts';
import { stopOnSignals } from './graceful-stop.ts';
import { startRelay } from './relay.ts';

/** `npm run relay`: the push relay on its own. */
async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    console.warn(USAGE);
    return;
  }
  // The data directory holds push keys and watched addresses: whatever PGlite creates is its owner's only.
  process.umask(0o077);
  let config;
  try {
    config = readConfig(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`relay: ${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const log = createLog();
  let relay;
  try {
    relay = await startRelay(config, { log });
  } catch (error) {
    log.error('could not start', { message: error instanceof Error ? error.message : String(error) });
    log.flush();
    process.exit(1);
  }
  const running = relay;
  stopOnSignals(() => running.close(), log);
  const networks = Object.entries(config.nodes).map(([network, node]) => `${network} → ${node.url}`);
  log.info('relay listening', {
    // The words a supervisor or a script may wait for, as before the log was structured.
    message: `relay listening on ${running.url}`,
    url: running.url,
    database: running.db.kind,
    networks: networks.join(', '),
    vapidPublicKey: running.vapidPublicKey,
  });
}

void main();
