import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPushThreads, ThreadPoster } from '../../src/relay/push/thread-poster.ts';
import { InThreadPoster, type PushPoster } from '../../src/relay/push/poster.ts';
import { pushPayload, pushTopic } from '../../src/relay/push/payload.ts';
import type { PushJob } from '../../src/relay/push/post-request.ts';
import { VapidTokens } from '../../src/relay/push/vapid-tokens.ts';
import type { RelayAlert } from '../../src/relay/storage/deliveries.ts';
import { freePort, startPushStandIn, type PushStandIn } from './harness.ts';
import { PushProxy } from './push-proxy.ts';

const B = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:relay@example.org' };
const tokens = new VapidTokens(vapid);

const alert = (n: number, phase: RelayAlert['phase']): RelayAlert => ({
  id: `testnet:${B}:0x${String(n).padStart(64, '0')}`,
  cursor: String(n),
  network: 'testnet',
  principal: B,
  txId: `0x${String(n).padStart(64, '0')}`,
  phase,
  title: `Alert ${n}`,
  body: `State ${phase}`,
  path: `/address/${B}`,
  at: n,
});

let standIn: PushStandIn;
let proxy: PushProxy;
beforeAll(async () => {
  standIn = await startPushStandIn();
  proxy = await new PushProxy(standIn.origin).start();
});
afterAll(async () => {
  await proxy?.close();
  standIn?.close();
});

async function subscribed(): Promise<{ subscription: PushJob['subscription']; clientHash: string }> {
  const { endpoint, keys, clientHash } = await standIn.subscribe(vapid.publicKey);
  return { subscription: { endpoint: proxy.endpointFor(endpoint), keys }, clientHash };
}

const job = (subscription: PushJob['subscription'], n: number, phase: RelayAlert['phase']): PushJob => ({
  deviceId: `device-${n}`,
  alerts: [alert(n, phase)],
  urgency: phase === 'confirmed' ? 'high' : 'normal',
  subscription,
  authorization: tokens.authorization(subscription.endpoint),
});

describe('pushes encrypted and posted on worker threads', () => {
  let threads: ThreadPoster;
  beforeAll(async () => {
    threads = await ThreadPoster.start(2, (problem) => expect.fail(problem));
  });
  afterAll(async () => threads?.close());

  it('sends what the event loop sends: the same payloads (decrypted by the push service) and headers', async () => {
    const posters: [string, PushPoster][] = [
      ['threads', threads],
      ['event loop', new InThreadPoster()],
    ];
    for (const [name, poster] of posters) {
      const { subscription, clientHash } = await subscribed();
      const jobs = Array.from({ length: 40 }, (_, n) => job(subscription, n, n % 2 ? 'confirmed' : 'pending'));
      const from = proxy.seen.length;
      const outcomes = await Promise.all(jobs.map((each) => poster.post(each)));
      expect(outcomes, name).toEqual(jobs.map(() => ({ status: 201, retryAfter: null })));
      const received = (await standIn.notifications(clientHash)).sort();
      expect(received, name).toEqual(jobs.map((each) => pushPayload(each.alerts)).sort());
      const headers = proxy.seen.slice(from).map(({ ttl, urgency, topic }) => `${topic} ${ttl} ${urgency}`);
      expect(headers.sort(), name).toEqual(
        jobs
          .map((each) => {
            const ttl = each.alerts[0].phase === 'pending' ? 3600 : 86_400;
            return `${pushTopic(each.deviceId, each.alerts[0].id)} ${ttl} ${each.urgency}`;
          })
          .sort(),
      );
    }
  });

  it("passes on the push service's refusals with their Retry-After; a redirect or an unreachable service is 0", async () => {
    const { subscription } = await subscribed();
    proxy.refusals.push({ status: 429, retryAfter: '7' }, { status: 503 });
    expect(await threads.post(job(subscription, 1, 'confirmed'))).toEqual({ status: 429, retryAfter: '7' });
    expect(await threads.post(job(subscription, 2, 'confirmed'))).toEqual({ status: 503, retryAfter: null });
    // A redirect is not followed (the endpoint was validated, where it points was not): as fetch refuses it.
    proxy.refusals.push({ status: 302 }, { status: 302 });
    expect(await threads.post(job(subscription, 3, 'confirmed'))).toEqual({ status: 0, retryAfter: null });
    expect(await new InThreadPoster(fetch).post(job(subscription, 3, 'confirmed'))).toEqual({
      status: 0,
      retryAfter: null,
    });
    const closed = { ...subscription, endpoint: `http://127.0.0.1:${await freePort()}/push/x` };
    expect(await threads.post(job(closed, 3, 'confirmed'))).toEqual({ status: 0, retryAfter: null });
  });

  it('refuses a push whose keys are unusable, as the event loop does', async () => {
    const { subscription } = await subscribed();
    const unusable = { ...subscription, keys: { ...subscription.keys, p256dh: `B${'A'.repeat(86)}` } };
    await expect(new InThreadPoster().post(job(unusable, 1, 'confirmed'))).rejects.toThrow();
    await expect(threads.post(job(unusable, 1, 'confirmed'))).rejects.toThrow();
  });

  it('takes no pushes once closed', async () => {
    const closing = await ThreadPoster.start(1, (problem) => expect.fail(problem));
    await closing.close();
    const { subscription } = await subscribed();
    await expect(closing.post(job(subscription, 1, 'confirmed'))).rejects.toThrow(/no push thread/);
  });
});

describe('how many push threads by default', () => {
  it('uses two from two cores up, then all but one core, at most four, and none on a single core', () => {
    expect([1, 2, 3, 4, 5, 8, 64].map((cores) => defaultPushThreads(cores))).toEqual([0, 2, 2, 3, 4, 4, 4]);
  });
});
