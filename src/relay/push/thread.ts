import { parentPort } from 'node:worker_threads';
import { postPush } from './post.ts';
import type { Answer, JobsMessage, WorkerMessage } from './thread-messages.ts';

/** Pushes encrypted and posted before the thread looks at its sockets again (answers, the next batch). */
const CHUNK = 16;

/**
 * A push worker thread (started by ThreadPoster): encrypts and posts the pushes it is handed, a few at a time so that
 * the first leave while the rest are encrypted, confirmed incoming transfers (Urgency high) before the rest as in the
 * sender's queue, and sends their answers back together, those that arrive in one turn of its event loop in one
 * message. (The sender never hands over two states of one alert at once, so this order cannot swap them.)
 */
const port = parentPort!;
let answers: Answer[] = [];
const lanes: { high: JobsMessage['jobs'][number][]; normal: JobsMessage['jobs'][number][] } = {
  high: [],
  normal: [],
};
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
  const chunk = lanes.high.splice(0, CHUNK);
  chunk.push(...lanes.normal.splice(0, CHUNK - chunk.length));
  for (const { id, job } of chunk)
    postPush(job).then(
      (outcome) => answer(id, outcome),
      (error: unknown) => answer(id, { error: String(error) }),
    );
  working = lanes.high.length + lanes.normal.length > 0;
  if (working) setImmediate(work);
}

port.on('message', (message: JobsMessage) => {
  for (const handed of message.jobs) (handed.job.urgency === 'high' ? lanes.high : lanes.normal).push(handed);
  if (!working) work();
});
port.postMessage({ ready: true } satisfies WorkerMessage);
