import { postPush, type PushOutcome } from './push-post.ts';
import type { PushJob } from './push-request.ts';

/** Where pushes are encrypted and posted: on the event loop, or on worker threads (`WorkerPoster`). */
export interface PushPoster {
  /** Rejects only if the push could not even be made (its keys unusable); an unreachable service is status 0. */
  post(job: PushJob): Promise<PushOutcome>;
  close(): Promise<void>;
}

/** Encrypts and posts on the calling thread (`--push-threads 0`, and tests that script the push service). */
export class InThreadPoster implements PushPoster {
  constructor(private readonly fetch: typeof globalThis.fetch = (...args) => globalThis.fetch(...args)) {}

  post(job: PushJob): Promise<PushOutcome> {
    return postPush(job, this.fetch);
  }

  async close(): Promise<void> {}
}
