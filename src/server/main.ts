#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { USAGE } from '../relay/config.ts';
import { stopOnSignals } from '../relay/graceful-stop.ts';
import { createLog } from '../relay/log.ts';
import { startFailure } from '../relay/start-failure.ts';
import { readServerConfig, SERVER_USAGE, type ServerConfig } from './server-config.ts';
import { startServer } from './start-server.ts';

/**
 * `stacks-watch` / `npm run serve`: the built app and its relay on one origin. Run from the compiled output
 * (build/server/, `npm run build`) the default root is the dist/ beside it; run from source, the repository's.
 */
const DEFAULT_ROOT = fileURLToPath(
  new URL(import.meta.url.endsWith('.js') ? '../../../../dist/' : '../../dist/', import.meta.url),
);

async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    // The server's own --host and --port (STACKS_WATCH_HOST, _PORT) stand for the relay's.
    const relayOptions = USAGE.split('\n').filter((line) => !/^\s+--(host|port) /.test(line));
    console.warn(`${SERVER_USAGE}\n\nRelay options:\n${relayOptions.join('\n')}`);
    return;
  }
  // The data directory holds push keys and watched addresses: whatever PGlite creates is its owner's only.
  process.umask(0o077);
  let config: ServerConfig;
  try {
    config = readServerConfig(process.argv.slice(2), process.env, DEFAULT_ROOT);
  } catch (error) {
    console.error(`stacks-watch: ${(error as Error).message}\n\n${SERVER_USAGE}`);
    process.exitCode = 2;
    return;
  }
  const log = createLog();
  const server = await startServer(config, { relayHooks: { log } });
  stopOnSignals(() => server.close(), log);
  const relay = server.relay
    ? `relay at /relay (${server.relay.db.kind}; ${Object.entries(config.relaySettings.nodes)
        .map(([network, node]) => `${network} → ${node.url}`)
        .join(', ')}); VAPID public key ${server.relay.vapidPublicKey}`
    : 'no relay (--no-relay)';
  console.warn(`stacks-watch listening on ${server.url} (app from ${config.root}; ${relay})`);
  console.warn(
    `stacks-watch: the app is told to use ${server.published.lines.join(', ')}` +
      (config.publicUrl ? '' : " (from each request's origin; set --public-url to fix it)"),
  );
  for (const warning of server.published.warnings) console.warn(`stacks-watch: warning: ${warning}`);
}

void main().catch((error: unknown) => {
  const failure = startFailure(error);
  console.error(`stacks-watch: could not start: ${failure.line}`);
  process.exit(failure.exitCode);
});
