import { parentPort } from 'node:worker_threads';

/**
 * A push thread that fails the way a broken install or a crash would: it cannot load while BROKEN_PUSH_WORKER is set
 * (the environment is copied when a thread starts), and once running it dies on the first pushes it is handed.
 */
if (process.env['BROKEN_PUSH_WORKER']) throw new Error('this push thread cannot load');
const port = parentPort!;
port.on('message', () => process.exit(3));
port.postMessage({ ready: true });
