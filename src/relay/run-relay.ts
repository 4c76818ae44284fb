import { readConfig, USAGE } from './config.ts';
import { createLog } from './log.ts';
import { stopOnSignals } from './graceful-stop.ts';
import { startRelay, type RelayHooks } from './relay.ts';
import { startFailure } from './start-failure.ts';

/**
 * The push relay as a process: its flags and environment read, started, stopped on SIGTERM or SIGINT. `hooks` are for
 * tests that run it as its own process with time scaled down (tests/relay/scaled-relay.ts); `npm run relay` gives none.
 */
export async function runRelay(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  hooks: Omit<RelayHooks, 'log'> = {},
): Promise<void> {
  if (argv.includes('--help')) {
    console.warn(USAGE);
    return;
  }
  // The data directory holds push keys and watched addresses: whatever PGlite creates is its owner's only.
  process.umask(0o077);
  let config;
  try {
    config = readConfig(argv, env);
  } catch (error) {
    console.error(`relay: ${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const log = createLog();
  let relay;
  try {
    relay = await startRelay(config, { ...hooks, log });
  } catch (error) {
    const failure = startFailure(error);
    log.error('could not start', { message: failure.line, exitCode: failure.exitCode });
    log.flush();
    process.exit(failure.exitCode);
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
