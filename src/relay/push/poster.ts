import type { Post, PushOutcome } from './http.ts';
import { fetchPost, postPush } from './post.ts';
import type { PushJob } from './post-request.ts';

/** Where pushes are encrypted and posted: on the event loop, or on worker threads (`ThreadPoster`). */
export interface PushPoster {
  /** Rejects only if the push could not even be made (its keys unusable); an unreachable service is status 0. */
  post(job: PushJob): Promise<PushOutcome>;
  close(): Promise<void>;
}

/** Encrypts and posts on the calling thread (`--push-threads 0`; with a `fetch`, for tests that script the service). */
export class InThreadPoster implements PushPoster {
  private readonly send: Post | undefined;

  constructor(fetch?: typeof globalThis.fetch) {
    this.send = fetch ? fetchPost(fetch) : undefined;
  }

  post(job: PushJob): Promise<PushOutcome> {
    return postPush(job, this.send);
  }

  async close(): Promise<void> {}
}
