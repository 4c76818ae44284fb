import { createHash } from 'node:crypto';
import type { AlertFacts } from '../../domain/alerts/alert-facts.ts';
import { readAlertFacts } from '../../domain/alerts/alert-facts-read.ts';
import { alertPath } from '../../domain/alerts/alert-path.ts';
import { deviceWords } from '../../domain/alerts/device-words.ts';
import { pairTag } from '../../domain/alerts/transfer-pair.ts';
import { itemTag } from '../../domain/text/notification-content.ts';
import { DECLARATIVE_PUSH, RELAY_PUSH_DATA_VERSION, RELAY_PUSH_VERSION } from '../../domain/relay/relay-message.ts';
import type { RelayAlert } from '../storage/deliveries.ts';

/**
 * A push's plaintext limit: push services take 4,096 bytes of aes128gcm body, of which the header (86), the record's
 * delimiter (1) and its tag (16) take 103, and the relay adds no padding.
 */
export const MAX_PAYLOAD_BYTES = 3993;

/** Words that shorten as a payload is fitted: a side's own, or a declarative notification's. */
interface Words {
  title: string;
  body: string;
}

type Side = Omit<RelayAlert, 'title' | 'body' | 'facts'> & Words & { facts?: AlertFacts | undefined };

/** What a declarative notification shows and opens: one side's words, or a transaction's between watched sides. */
interface Heading {
  readonly words: Words;
  readonly tag: string;
  readonly path: string;
}

/**
 * The push payload of one alert, or of the sides of one transaction in one state that one device watches (the
 * contract's PushSides: the first is `alert`, the rest `otherSides`). With the app's origin known, a Declarative Web
 * Push message (Safari and iOS 18.4+ show it even when the service worker is not run; `mutable` lets a worker that
 * runs word it with the user's labels): its `navigate` is the app's origin and the path built by the rule the worker
 * uses. Several sides show the transaction's words, worded from the first side's facts as a device that labelled
 * nothing would (deviceWords), under the transaction's tag, each side's own words kept in its alert. Without an
 * origin, `{ v: 1, alert, otherSides }`. Too long, it loses first the facts, the last side's first (the device then
 * shows the relay's words for it), then the longest body's characters, then the longest title's.
 */
export function pushPayload(given: RelayAlert | readonly RelayAlert[], appOrigin: string | null = null): string {
  const sides: Side[] = (Array.isArray(given) ? given : [given]).map((side: RelayAlert) => ({ ...side }));
  const heading = appOrigin ? headingOf(sides) : null;
  const slots = heading && sides.length > 1 ? [heading.words, ...sides] : sides;
  for (;;) {
    const text = render(sides, heading, appOrigin);
    if (Buffer.byteLength(text) <= MAX_PAYLOAD_BYTES || !shortened(sides, slots)) return text;
  }
}

const render = (sides: readonly Side[], heading: Heading | null, appOrigin: string | null): string =>
  heading && appOrigin
    ? declarative(sides, heading, appOrigin)
    : JSON.stringify({ v: RELAY_PUSH_VERSION, alert: sides[0], ...others(sides, (side) => side) });

/** One step shorter; false when nothing is left to take. */
function shortened(sides: Side[], slots: Words[]): boolean {
  const withFacts = [...sides].reverse().find((side) => side.facts !== undefined);
  if (withFacts) return ((withFacts.facts = undefined), true);
  const longest = (key: keyof Words) =>
    slots.reduce((best, slot) => (slot[key].length > best[key].length ? slot : best));
  const body = longest('body');
  if (body.body.length > 0)
    return ((body.body = shorten(body.body, body.body.length > 200 ? body.body.length - 200 : 0)), true);
  const title = longest('title');
  if (title.title.length > 0) return ((title.title = shorten(title.title, Math.max(0, title.title.length - 50))), true);
  return false;
}

/** One side: its own words; several: the transaction's, when the first side's facts tell it as one. */
function headingOf(sides: readonly Side[]): Heading {
  const first = sides[0]!;
  const facts = sides.length > 1 && first.facts ? readAlertFacts(first.facts) : null;
  if (facts?.ok) {
    const watched = new Map(sides.map((side) => [side.principal, { label: '' }]));
    const { pair } = deviceWords(first, facts.value, { watched, names: new Map(), tokens: new Map() });
    if (pair)
      return {
        words: { title: pair.title, body: pair.body },
        tag: pairTag(pair.key),
        path: alertPath({ network: first.network, principal: pair.to, txId: first.txId }),
      };
  }
  return {
    words: sides.length > 1 ? { title: first.title, body: first.body } : first,
    tag: itemTag(first.id),
    path: alertPath(first),
  };
}

function declarative(sides: readonly Side[], heading: Heading, appOrigin: string): string {
  const many = sides.length > 1;
  // The relay's path stays out: a device builds its own (alertPath), and so does `navigate` here.
  const dataOf = ({ cursor, id, network, principal, txId, phase, at, facts, title, body, afterRevert }: Side) => ({
    ...{ cursor, id, network, principal, txId, phase, at },
    ...(facts ? { facts } : {}),
    ...(afterRevert ? { afterRevert } : {}),
    ...(many ? { title, body } : {}),
  });
  return JSON.stringify({
    web_push: DECLARATIVE_PUSH,
    notification: {
      // The declarative parser refuses an empty title: the message would then reach no one where no worker runs.
      title: heading.words.title || 'Stacks Watch',
      body: heading.words.body,
      navigate: `${appOrigin}${heading.path}`,
      tag: heading.tag,
      lang: 'en',
      data: { v: RELAY_PUSH_DATA_VERSION, alert: dataOf(sides[0]!), ...others(sides, dataOf) },
    },
    mutable: true,
  });
}

const others = <T>(sides: readonly Side[], shape: (side: Side) => T): { otherSides?: T[] } =>
  sides.length > 1 ? { otherSides: sides.slice(1).map(shape) } : {};

const shorten = (text: string, length: number): string =>
  length <= 1 ? '' : `${[...text].slice(0, length - 1).join('')}…`;

/**
 * Whether these sides go in one push with their words whole (their facts may have to go: the device then shows the
 * relay's words for them, in one notification still).
 */
export function fitsOnePush(given: readonly RelayAlert[], appOrigin: string | null): boolean {
  const sides: Side[] = given.map((side) => ({ ...side, facts: undefined }));
  const heading = appOrigin ? headingOf(given.map((side) => ({ ...side }))) : null;
  return Buffer.byteLength(render(sides, heading, appOrigin)) <= MAX_PAYLOAD_BYTES;
}

/**
 * Opaque (never an address): a later state of the same alert replaces an earlier one still waiting at the push
 * service. A push of several sides has the topic of exactly those alerts: its next state (the transaction mined)
 * replaces it, and a push of one of them alone does not (were it to, the other side's push would be lost).
 */
export const pushTopic = (deviceId: string, alertIds: string | readonly string[]): string =>
  createHash('sha256')
    .update(`${deviceId}|${typeof alertIds === 'string' ? alertIds : [...alertIds].sort().join('|')}`)
    .digest('base64url')
    .slice(0, 32);

export const pushTtl = (alert: Pick<RelayAlert, 'phase'>): number => (alert.phase === 'pending' ? 3600 : 86_400);
