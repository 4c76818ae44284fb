import { describe, expect, it } from 'vitest';
import { alertId, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { TrayModel } from '../support/told.ts';
import type { TextContext } from '../../src/domain/text/alert-text.ts';
import type { Activity, Movement } from '../../src/domain/state/snapshot.ts';
import { SeededRandom } from '../../mocks/devnet/random.ts';

const PEOPLE = [
  'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4',
  'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG',
  'ST2NEB84ASENDXKYGJPQW86YXQCEFEX2ZQPG87ND',
];
const VAULT = `${PEOPLE[1]}.vault`;
const STRANGER = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5';
const TOKEN = `${STRANGER}.token`;
const WATCHED = [...PEOPLE, VAULT];
const labels = new Map(WATCHED.map((principal, index) => [principal, `W${index}`]));
const text: TextContext = { label: (p) => labels.get(p) ?? '', nameOf: () => null, token: () => undefined };

/** A transaction of the generated traffic: an STX transfer, a token transfer, or a withdrawal from the watched vault. */
interface Tx {
  readonly id: string;
  readonly kind: 'stx' | 'token' | 'vault';
  readonly from: string;
  readonly to: string;
}

/** What `principal` holds of the transaction in `phase`, as the engine reads it from the node. */
function activityOf(tx: Tx, principal: string, phase: AlertItem['phase']): Activity {
  const status = phase === 'pending' ? 'pending' : phase === 'failed' ? 'failed' : 'success';
  const moved = (movement: Omit<Movement, 'type' | 'kind'> & { type?: Movement['type'] }): Movement[] => [
    { type: 'stx', kind: 'transfer', ...movement },
  ];
  // An STX transfer's movement is the transaction itself; a call's are its events, once mined.
  const movements =
    status === 'failed'
      ? []
      : tx.kind === 'stx'
        ? moved({ assetIdentifier: 'STX', sender: tx.from, recipient: tx.to, amount: 100n })
        : status === 'pending'
          ? null
          : tx.kind === 'token'
            ? moved({ type: 'ft', assetIdentifier: `${TOKEN}::t`, sender: tx.from, recipient: tx.to, amount: 5n })
            : moved({ assetIdentifier: 'STX', sender: VAULT, recipient: tx.to, amount: 84n });
  const call =
    tx.kind === 'token'
      ? { contractId: TOKEN, functionName: 'transfer' }
      : tx.kind === 'vault'
        ? { contractId: VAULT, functionName: 'withdraw' }
        : null;
  const net = (movements ?? []).reduce(
    (sum, m) => sum + (m.recipient === principal ? m.amount : 0n) - (m.sender === principal ? m.amount : 0n),
    0n,
  );
  return {
    txId: tx.id,
    status,
    kind: call ? 'contract_call' : 'token_transfer',
    counterparty: call ? (principal === tx.from ? call.contractId : tx.from) : principal === tx.from ? tx.to : tx.from,
    stxNet: net - (principal === tx.from ? 10n : 0n),
    fee: 10n,
    memo: null,
    contractCall: call,
    blockHeight: status === 'pending' ? null : 5,
    time: 1,
    sender: tx.from,
    movements,
  };
}

/**
 * Which watched addresses get an alert of the transaction in `phase`, as the node lists it: while pending its sender,
 * an STX transfer's recipient and the contract it calls; once mined every party of its movements too.
 */
function sidesOf(tx: Tx, phase: AlertItem['phase']): string[] {
  const sides = new Set([tx.from, tx.kind === 'stx' ? tx.to : tx.kind === 'vault' ? VAULT : TOKEN]);
  if (phase === 'confirmed') sides.add(tx.to);
  return [...sides].filter((principal) => WATCHED.includes(principal));
}

const alertOf = (tx: Tx, principal: string, phase: AlertItem['phase']): AlertItem => ({
  id: alertId('testnet', principal, tx.id),
  network: 'testnet',
  principal,
  subject: tx.id,
  phase,
  activity: activityOf(tx, principal, phase),
  amount: null,
  at: 0,
  catchUp: false,
});

/**
 * One generated run: four transactions between the watched addresses (and a stranger), each pending then mined or
 * failed, their sides reaching the alerter in any order and any batching, with busy addresses, and the user
 * dismissing every notification now and then. Says what broke: an alert in no notice or in two, an alert or a
 * transaction on two notifications at once.
 */
function run(seed: number): string[] {
  const random = new SeededRandom(`shared-tx-${seed}`);
  const problems: string[] = [];
  const txs: Tx[] = Array.from({ length: 4 }, (_, index) => {
    const kind = random.pick(['stx', 'token', 'vault'] as const);
    const from = random.pick(PEOPLE);
    const to = kind === 'vault' ? from : random.pick([...PEOPLE.filter((p) => p !== from), STRANGER]);
    return { id: `0x${seed}t${index}`, kind, from, to };
  });
  // Each side's states in order (pending, then mined or failed); sides and transactions interleaved at random.
  const queues = txs.map((tx) => {
    const end = random.chance(0.2) ? 'failed' : 'confirmed';
    const sides = new Set([...sidesOf(tx, 'pending'), ...sidesOf(tx, end)]);
    return [...sides].map((principal) => [
      ...(sidesOf(tx, 'pending').includes(principal) ? [alertOf(tx, principal, 'pending')] : []),
      ...(sidesOf(tx, end).includes(principal) ? [alertOf(tx, principal, end)] : []),
    ]);
  });
  const order: AlertItem[] = [];
  for (let live = queues.flat(); live.length > 0; live = queues.flat().filter((queue) => queue.length > 0)) {
    const next = random.pick(live).shift()!;
    // Once mined (or failed) the transaction leaves the mempool: a side not told pending by then never is.
    if (next.phase === 'pending' && order.some((item) => item.subject === next.subject && item.phase !== 'pending'))
      continue;
    order.push(next);
  }
  const batches: AlertItem[][] = [];
  for (let filler = 0; order.length > 0;) {
    const batch = order.splice(0, random.int(1, 3));
    // Other traffic of the watched people: a busy address's alerts fold into summaries.
    if (random.chance(0.3))
      for (let n = random.int(1, 4); n > 0; n--) {
        const to = random.pick(PEOPLE);
        const tx: Tx = { id: `0x${seed}f${filler++}`, kind: 'stx', from: STRANGER, to };
        batch.push(alertOf(tx, to, 'confirmed'));
      }
    batches.push(batch);
  }
  const tray = new TrayModel(text, { watched: (_, principal) => WATCHED.includes(principal) });
  const { screen } = tray;
  for (const [index, batch] of batches.entries()) {
    tray.batch(batch, index * 5_000);
    // Every alert of the batch told, recorded as told one way.
    const untold = batch.filter((item) => tray.inbox.get(item.id)?.undelivered !== false);
    if (untold.length > 0) problems.push(`batch ${index}: ${untold.length} alerts not told`);
    if (random.chance(0.1)) screen.clear();
    const carriers = new Map<string, string[]>();
    for (const content of screen.values())
      for (const id of content.data.ids) carriers.set(id, [...(carriers.get(id) ?? []), content.title]);
    for (const [id, titles] of carriers)
      if (titles.length > 1) problems.push(`batch ${index}: ${id.slice(-12)} on ${titles.join(' & ')}`);
    for (const tx of txs) {
      const on = [...screen.values()].filter((content) => content.data.ids.some((id) => id.endsWith(`:${tx.id}`)));
      if (on.length > 1)
        problems.push(
          `batch ${index}: ${tx.kind} ${tx.id} on ${on.map((content) => `"${content.title}"`).join(' & ')}`,
        );
    }
  }
  return problems;
}

describe('a transaction between watched addresses, in generated traffic (seeded)', () => {
  it('is in exactly one notice per batch and on one notification at most, each of its alerts too', () => {
    for (let seed = 1; seed <= 1000; seed++) expect(run(seed), `seed ${seed}`).toEqual([]);
  });
});
