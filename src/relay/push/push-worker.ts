import { parentPort } from 'node:worker_threads';
import { postPush } from './push-post.ts';
import type { Answer, JobsMessage, WorkerMessage } from './worker-protocol.ts';

/** Pushes encrypted and posted before the thread looks at its sockets again (answers, the next batch). */
const CHUNK = 16;

/**
 * A push worker thread (started by WorkerPoster): encrypts and posts the pushes it is handed, a few at a time so that
 * the first leave while the rest are encrypted, and sends their answers back together, those that arrive in one turn
 * of its event loop in one message.
 */
const port = parentPort!;
let answers: Answer[] = [];
const jobs: JobsMessage['jobs'][number][] = [];
let working = false;

function answer(id: number, outcome: Answer['outcome']): void {
  if (answers.length === 0)
    setImmediate(() => {
      const message: WorkerMessage = { answers };
      answers = [];
      port.postMessage(message);
    });
  answers.push({ id, outcome });
}

function work(): void {
  for (const { id, job } of jobs.splice(0, CHUNK))
    postPush(job).then(
      (outcome) => answer(id, outcome),
      (error: unknown) => answer(id, { error: String(error) }),
    );
  working = jobs.length > 0;
  if (working) setImmediate(work);
}

port.on('message', (message: JobsMessage) => {
  jobs.push(...message.jobs);
  if (!working) work();
});
port.postMessage({ ready: true } satisfies WorkerMessage);
