import { readConfig, USAGE } from './config.ts';
import { startRelay } from './relay.ts';

/** `npm run relay`: the push relay on its own. */
async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    console.warn(USAGE);
    return;
  }
  let config;
  try {
    config = readConfig(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`relay: ${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const relay = await startRelay(config);
  // Before the line that says it is up: a supervisor may stop it as soon as it reads it.
  const stop = () => void relay.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const networks = Object.entries(config.nodes).map(([network, node]) => `${network} → ${node.url}`);
  console.warn(
    `relay listening on ${relay.url} (${relay.db.kind}; ${networks.join(', ')}); VAPID public key ${relay.vapidPublicKey}`,
  );
}

void main().catch((error: unknown) => {
  console.error('relay: could not start:', error);
  process.exit(1);
});
