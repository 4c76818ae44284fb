import type { AlertFacts } from '../alerts/alert-facts.ts';
import { readAlertFacts } from '../alerts/alert-facts-read.ts';
import type { AlertPhase } from '../alerts/alert-ledger.ts';
import { alertPath } from '../alerts/alert-path.ts';
import { isRecord } from '../is-record.ts';
import { isNetwork, type Network } from '../network.ts';
import { err, ok, type Result } from '../result.ts';

/** One alert as the relay tells it, in a push message or in the alerts feed (see the relay contract). */
export interface RelayAlert {
  /** Opaque, increasing per device: where the next catch-up starts. */
  readonly cursor: string;
  /** `network:principal:subject`, the same id the app computes, so both sources share one inbox entry. */
  readonly id: string;
  readonly network: Network;
  readonly principal: string;
  readonly txId: string | null;
  readonly phase: AlertPhase;
  readonly title: string;
  readonly body: string;
  /**
   * In-app path of the address page and transaction. The relay sends one; the app never follows it and puts the
   * path it builds itself (alertPath) in its place when it reads an alert.
   */
  readonly path: string;
  /** Epoch ms when the relay learned it. */
  readonly at: number;
  /** What happened, as data: the device words it with its own labels (absent from older relays). */
  readonly facts?: AlertFacts;
  /** Told by another alert and never pushed (AlertItem.quiet): the device keeps it read. */
  readonly quiet?: true;
  /**
   * Pending again after a re-org took its block away (AlertItem.afterRevert): told as that revert. Kept beside the
   * facts, which a push too long for its limit loses, and only on a pending state.
   */
  readonly afterRevert?: true;
}

/** An address whose states the relay no longer keeps for this catch-up: the app reads it over REST instead. */
export interface MissedAddress {
  readonly network: Network;
  readonly principal: string;
}

export interface RelayAlertsPage {
  readonly alerts: readonly RelayAlert[];
  readonly next: string;
  readonly more: boolean;
  /**
   * The relay keeps a device's last 500 states: when the cursor is older than that, the addresses whose states left
   * the log (the wire's `gap: { principals }`); empty otherwise.
   */
  readonly missed: readonly MissedAddress[];
}

export const RELAY_PUSH_VERSION = 1;
/** The Declarative Web Push marker (the Push API's declarative push message: `web_push` must be 8030). */
export const DECLARATIVE_PUSH = 8030;
/** The version of this app's data inside a declarative push's `notification.data`. */
export const RELAY_PUSH_DATA_VERSION = 2;

const PHASES: readonly AlertPhase[] = ['pending', 'confirmed', 'failed', 'dropped', 'reverted', 'locked', 'unlocked'];
const PRINCIPAL = /^S[PMTN][0-9A-HJKMNP-TV-Z]{20,50}(\.[A-Za-z][A-Za-z0-9_-]{0,127})?$/;
const CURSOR = /^[\x21-\x7e]{1,100}$/;
const TEXT_LIMIT = 2000;

const text = (record: Record<string, unknown>, key: string, limit = TEXT_LIMIT): Result<string, string> => {
  const value = record[key];
  if (typeof value !== 'string') return err(`“${key}” must be a string`);
  if (value.length > limit) return err(`“${key}” is longer than ${limit} characters`);
  return ok(value);
};

/** Reads one RelayAlert; the error names the first field that is wrong and what was expected. */
export function decodeRelayAlert(raw: unknown): Result<RelayAlert, string> {
  if (!isRecord(raw)) return err('the alert is not a JSON object');
  const { cursor, network, principal, txId, phase, at } = raw;
  if (typeof cursor !== 'string' || !CURSOR.test(cursor))
    return err('“cursor” must be a string of 1 to 100 printable characters');
  if (!isNetwork(network)) return err('“network” must be "mainnet" or "testnet"');
  if (typeof principal !== 'string' || !PRINCIPAL.test(principal))
    return err('“principal” must be a Stacks address (SP…, SM…, ST…, SN…, optionally .contract-name)');
  const id = text(raw, 'id', 300);
  if (!id.ok) return id;
  if (!id.value.startsWith(`${network}:${principal}:`) || id.value.length === `${network}:${principal}:`.length)
    return err('“id” must be "<network>:<principal>:<subject>" for the alert’s own network and principal');
  if (txId !== null && (typeof txId !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(txId)))
    return err('“txId” must be null or a transaction id (0x and 64 hex digits)');
  if (typeof phase !== 'string' || !(PHASES as readonly string[]).includes(phase))
    return err(`“phase” must be one of ${PHASES.join(', ')}`);
  const title = text(raw, 'title', 300);
  if (!title.ok) return title;
  const body = text(raw, 'body');
  if (!body.ok) return body;
  if (typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0)
    return err('“at” must be a time in epoch milliseconds');
  return ok({
    cursor,
    id: id.value,
    network,
    principal,
    txId,
    phase: phase as AlertPhase,
    title: title.value,
    body: body.value,
    path: alertPath({ network, principal, txId }),
    at,
    ...factsOf(raw['facts']),
    ...(raw['quiet'] === true ? { quiet: true as const } : {}),
    ...(raw['afterRevert'] === true && phase === 'pending' ? { afterRevert: true as const } : {}),
  });
}

/** Facts that do not read are left out (the relay's own words still tell the alert), and said once in the console. */
function factsOf(raw: unknown): { facts?: AlertFacts } {
  if (raw === undefined) return {};
  const read = readAlertFacts(raw);
  if (read.ok) return { facts: raw as AlertFacts };
  console.warn(`Using the relay's words for an alert: its facts do not read (${read.error})`);
  return {};
}

/**
 * The alerts one push carries: the sides of one transaction that this device watches, all in one state (a transfer
 * between two of its addresses, a call by one to another), told by one notification; one alert, mostly. Each side is
 * still its own alert, stored in the inbox under its own id.
 */
export type PushSides = readonly [RelayAlert, ...RelayAlert[]];

/** Sides in one push, at most: a device's watch list is capped well below it, and a push must fit 4 kB. */
export const MAX_PUSH_SIDES = 16;

/**
 * Reads a push message's data: a Declarative Web Push message (`{ web_push: 8030, notification: { title, body,
 * navigate, data: { v: 2, alert } } }`, the alert's words being the notification's), or the older `{ v: 1, alert }`.
 * Either may carry `otherSides`, the other sides of the alert's transaction in the same state (a relay before them
 * sent each side alone; a worker before them reads the first side and finds the rest in the alerts feed). A
 * declarative message with other sides shows the transaction's words, so each side's own are in its alert.
 */
export function decodePushPayload(raw: unknown): Result<PushSides, string> {
  if (!isRecord(raw)) return err('the push message is not a JSON object');
  if (raw['web_push'] === DECLARATIVE_PUSH) {
    const notification = raw['notification'];
    if (!isRecord(notification)) return err('the declarative push message has no “notification” object');
    const data = notification['data'];
    if (!isRecord(data) || data['v'] !== RELAY_PUSH_DATA_VERSION)
      return err(
        `the declarative push message’s “notification.data” is not this app’s (version ${RELAY_PUSH_DATA_VERSION})`,
      );
    const given = isRecord(data['alert']) ? data['alert'] : {};
    const alert = decodeRelayAlert({
      ...given,
      title: given['title'] ?? notification['title'],
      body: given['body'] ?? notification['body'] ?? '',
    });
    return alert.ok
      ? withOtherSides(alert.value, data['otherSides'])
      : err(`the push message’s alert is malformed: ${alert.error}`);
  }
  if (raw['v'] !== RELAY_PUSH_VERSION)
    return err(
      `the push message has version ${JSON.stringify(raw['v'])}; this app reads version 1, or a declarative push`,
    );
  const alert = decodeRelayAlert(raw['alert']);
  return alert.ok
    ? withOtherSides(alert.value, raw['otherSides'])
    : err(`the push message’s alert is malformed: ${alert.error}`);
}

/** The first side with the others a push names: each a whole alert of the same transaction and state, none twice. */
function withOtherSides(first: RelayAlert, raw: unknown): Result<PushSides, string> {
  if (raw === undefined) return ok([first]);
  if (!Array.isArray(raw) || raw.length === 0 || raw.length >= MAX_PUSH_SIDES)
    return err(`“otherSides” must be an array of 1 to ${MAX_PUSH_SIDES - 1} alerts, or left out`);
  if (first.txId === null)
    return err('a push with “otherSides” must tell a transaction, but its alert’s “txId” is null');
  const sides: [RelayAlert, ...RelayAlert[]] = [first];
  for (const [index, given] of raw.entries()) {
    const which = `side ${index + 2} of the push`;
    const side = decodeRelayAlert(given);
    if (!side.ok) return err(`${which} is malformed: ${side.error}`);
    const { id, network, txId, phase } = side.value;
    if (network !== first.network || txId !== first.txId || phase !== first.phase)
      return err(
        `${which} must tell the first alert’s transaction in its state (${first.network} ${first.txId} ${first.phase}), not ${network} ${String(txId)} ${phase}`,
      );
    if (sides.some((other) => other.id === id)) return err(`${which} repeats alert ${id}`);
    sides.push(side.value);
  }
  return ok(sides);
}

/** Reads a page of the alerts feed: `{ alerts, next, more }`. */
export function decodeAlertsPage(raw: unknown): Result<RelayAlertsPage, string> {
  if (!isRecord(raw)) return err('the alerts page is not a JSON object');
  const { alerts, next, more } = raw;
  if (!Array.isArray(alerts)) return err('“alerts” must be an array');
  if (alerts.length > 1000) return err('“alerts” holds more than 1,000 alerts; a page has at most 200');
  if (typeof next !== 'string' || !CURSOR.test(next))
    return err('“next” must be a cursor string of 1 to 100 printable characters');
  if (typeof more !== 'boolean') return err('“more” must be true or false');
  const decoded: RelayAlert[] = [];
  for (const [index, alert] of alerts.entries()) {
    const one = decodeRelayAlert(alert);
    if (!one.ok) return err(`alert ${index + 1}: ${one.error}`);
    decoded.push(one.value);
  }
  const missed = decodeGap(raw['gap']);
  return missed.ok ? ok({ alerts: decoded, next, more, missed: missed.value }) : missed;
}

/** Reads the optional `gap: { principals: [{ network, principal }] }` of an alerts page. */
function decodeGap(gap: unknown): Result<MissedAddress[], string> {
  if (gap === undefined) return ok([]);
  const principals = isRecord(gap) ? gap['principals'] : undefined;
  if (!Array.isArray(principals) || principals.length > 1000)
    return err('“gap” must be { principals: [{ network, principal }] } with at most 1,000 addresses');
  const missed: MissedAddress[] = [];
  for (const [index, item] of principals.entries()) {
    const { network, principal } = isRecord(item) ? item : {};
    if (!isNetwork(network) || typeof principal !== 'string' || !PRINCIPAL.test(principal))
      return err(`gap address ${index + 1} must be { network: "mainnet" | "testnet", principal: a Stacks address }`);
    missed.push({ network, principal });
  }
  return ok(missed);
}
