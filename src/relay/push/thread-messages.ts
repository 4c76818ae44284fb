import type { PushOutcome } from './http.ts';
import type { PushJob } from './post-request.ts';

/** Main thread → push worker: pushes to encrypt and post, many a message. */
export interface JobsMessage {
  readonly jobs: readonly { readonly id: number; readonly job: PushJob }[];
}

/** The push service's answer to one push, or why the push could not even be made (its keys unusable). */
export interface Answer {
  readonly id: number;
  readonly outcome: PushOutcome | { readonly error: string };
}

/** Push worker → main thread: it started (`ready`), or the answers gathered since its last message. */
export type WorkerMessage = { readonly ready: true } | { readonly answers: readonly Answer[] };
