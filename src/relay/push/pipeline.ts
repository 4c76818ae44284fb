import { InThreadPoster, type PushPoster } from './poster.ts';
import { ThreadPoster } from './thread-poster.ts';

/**
 * The push pipeline, one file per step, in the order an alert state travels:
 *
 * 1. queue (`queue.ts`): the states the engine stored, in memory, in the order they leave (confirmed incoming
 *    first; never two states of one alert in flight). `sender.ts` drives it: it takes the next state, hands it to
 *    the poster, and stores the push service's answer (told, retried per `retry-policy.ts`, given up to the
 *    dead-letter list, or the device forgotten).
 * 2. poster (`poster.ts`): where a push is encrypted and posted — on the event loop (`InThreadPoster`) or handed to
 *    worker threads (`thread-poster.ts`).
 * 3. thread (`thread.ts`, `thread-messages.ts`): one worker thread, taking pushes in batches and answering together.
 * 4. post (`post.ts`): one push — the request built and encrypted (`post-request.ts`, its plaintext from
 *    `payload.ts`), then sent.
 * 5. HTTP (`http.ts`): the POST to the push service with node:http(s), no redirects, within 15 s.
 *
 * Beside it: the VAPID keys (`vapid.ts`), their Authorization headers (`vapid-tokens.ts`) and the refusal to start
 * without the key the stored devices subscribed with (`vapid-lost-key.ts`).
 */

/** The poster for `--push-threads`: that many worker threads, or the event loop itself for 0. */
export async function startPoster(threads: number, report: (problem: string) => void): Promise<PushPoster> {
  return threads > 0 ? ThreadPoster.start(threads, report) : new InThreadPoster();
}
