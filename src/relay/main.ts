import { runRelay } from './run-relay.ts';

/** `npm run relay`: the push relay on its own. */
void runRelay(process.argv.slice(2), process.env);
