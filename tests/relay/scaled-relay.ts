/**
 * `src/relay/main.ts` with the push retries' time scaled down (scaled-time.ts): the relay as its own process, to be
 * killed with SIGKILL, in a fault test that cannot wait minutes for real backoff. Same flags and environment.
 */
import { runRelay } from '../../src/relay/run-relay.ts';
import { SCALED_RETRY } from './scaled-time.ts';

void runRelay(process.argv.slice(2), process.env, { retry: SCALED_RETRY });
