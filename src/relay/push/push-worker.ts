import { parentPort } from 'node:worker_threads';
import { postPush } from './push-post.ts';
import type { Answer, JobsMessage, WorkerMessage } from './worker-protocol.ts';

/**
 * A push worker thread (started by WorkerPoster): encrypts and posts the pushes it is handed, and sends their
 * answers back together, those that arrive in one turn of its event loop in one message.
 */
const port = parentPort!;
let answers: Answer[] = [];

function answer(id: number, outcome: Answer['outcome']): void {
  if (answers.length === 0)
    setImmediate(() => {
      const message: WorkerMessage = { answers };
      answers = [];
      port.postMessage(message);
    });
  answers.push({ id, outcome });
}

port.on('message', ({ jobs }: JobsMessage) => {
  for (const { id, job } of jobs)
    postPush(job, fetch).then(
      (outcome) => answer(id, outcome),
      (error: unknown) => answer(id, { error: String(error) }),
    );
});
port.postMessage({ ready: true } satisfies WorkerMessage);
