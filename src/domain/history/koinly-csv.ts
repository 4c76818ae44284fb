import { plainUnits, STX_DECIMALS } from '../amount.ts';
import { csvLine } from './csv-text.ts';
import type { Activity, TokenMetadata } from '../state/snapshot.ts';
import { feePaid } from '../state/tx-effect.ts';
import { isSbtc, SBTC_DECIMALS, SBTC_SYMBOL } from '../state/staking.ts';
import { collectionName, nftIdText } from '../text/asset-text.ts';
import { callName, callPurpose, isClaimCall } from '../text/effect-text.ts';
import { statusLine } from '../text/tx-detail.ts';

/** Koinly's universal format, column by column (docs/csv-export.md says what goes in each). */
export const KOINLY_COLUMNS = [
  'Date',
  'Sent Amount',
  'Sent Currency',
  'Received Amount',
  'Received Currency',
  'Fee Amount',
  'Fee Currency',
  'Net Worth Amount',
  'Net Worth Currency',
  'Label',
  'Description',
  'TxHash',
] as const;

export interface CsvAddress {
  readonly principal: string;
  /** The user's label, or the address when it has none. */
  readonly name: string;
}

export interface CsvRange {
  /** Unix seconds, inclusive; null: from the first transaction. */
  readonly from: number | null;
  /** Unix seconds, exclusive; null: up to the newest. */
  readonly until: number | null;
}

/** One asset's movement for the address in a transaction: positive received, negative sent, fee apart. */
interface Move {
  readonly currency: string;
  readonly decimals: number;
  readonly net: bigint;
  readonly note: string | null;
  /** Koinly's label for it: `reward` for staking rewards a claim paid. */
  readonly label: string;
}

/** `2026-11-24 13:05:09 UTC` */
export const koinlyDate = (unixSeconds: number): string =>
  `${new Date(unixSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** The address's own movements in a mined transaction: STX without the fee, each token, each NFT. */
function movesOf(activity: Activity, principal: string, token: (asset: string) => TokenMetadata | undefined): Move[] {
  if (activity.status !== 'success') return [];
  const ownFee = feePaid(activity, principal);
  const moves: Move[] = [];
  const stx = activity.stxNet + ownFee;
  if (stx !== 0n) moves.push({ currency: 'STX', decimals: STX_DECIMALS, net: stx, note: null, label: '' });
  const byAsset = new Map<string, bigint>();
  for (const movement of activity.movements ?? []) {
    if (movement.type === 'stx') continue;
    const key =
      movement.type === 'nft' ? `${movement.assetIdentifier}#${movement.nftId ?? ''}` : movement.assetIdentifier;
    const delta =
      (movement.recipient === principal ? movement.amount : 0n) -
      (movement.sender === principal ? movement.amount : 0n);
    byAsset.set(key, (byAsset.get(key) ?? 0n) + delta);
  }
  for (const [key, net] of byAsset) {
    if (net === 0n) continue;
    const [asset = key, nftId] = key.split('#');
    if (nftId !== undefined) {
      const currency = `${collectionName(asset)} ${nftIdText(nftId)}`;
      moves.push({ currency, decimals: 0, net, note: `NFT ${asset}`, label: '' });
      continue;
    }
    // sBTC is known without asking a node: 8 decimals, "sBTC".
    const metadata = isSbtc(asset) ? { symbol: SBTC_SYMBOL, decimals: SBTC_DECIMALS } : token(asset);
    // Staking rewards: sBTC a claim paid the address (Koinly counts a `reward` as income).
    const label = isClaimCall(activity.contractCall) && isSbtc(asset) && net > 0n ? 'reward' : '';
    moves.push(
      metadata
        ? { currency: metadata.symbol, decimals: metadata.decimals, net, note: null, label }
        : { currency: asset, decimals: 0, net, note: `${asset} in base units (its decimals are unknown)`, label },
    );
  }
  return moves;
}

/** `Call pool.deposit`; a call the app knows by its purpose: `Stake (pox-5.stake)`. */
function callDescription(call: NonNullable<Activity['contractCall']>): string {
  const purpose = callPurpose(call);
  return purpose ? `${purpose} (${callName(call)})` : `Call ${callName(call)}`;
}

function describe(activity: Activity, address: CsvAddress, note: string | null): string {
  const what =
    // A failure in the words the transaction's detail gives it, never the node's status code.
    activity.status === 'failed'
      ? statusLine(activity)
      : activity.contractCall
        ? callDescription(activity.contractCall)
        : activity.kind === 'token_transfer'
          ? 'STX transfer'
          : 'Transaction';
  const memo = activity.memo ? ` · memo “${activity.memo}”` : '';
  return `${address.name}: ${what}${memo}${note ? ` · ${note}` : ''}`;
}

/**
 * The rows of one address's mined transactions within a range, oldest first: one row per asset it moved, the fee
 * (when the address paid it) on the first; a transaction that moved nothing for it but cost it a fee (a failed one)
 * is one fee-only row. Pending and dropped transactions are left out: they moved nothing.
 */
export function koinlyRows(
  activities: readonly Activity[],
  address: CsvAddress,
  range: CsvRange,
  token: (asset: string) => TokenMetadata | undefined,
): string[][] {
  const rows: string[][] = [];
  const mined = activities
    .filter((activity) => activity.status === 'success' || activity.status === 'failed')
    .filter(
      (activity) =>
        (range.from === null || activity.time >= range.from) && (range.until === null || activity.time < range.until),
    )
    .sort((a, b) => (a.blockHeight ?? 0) - (b.blockHeight ?? 0) || (a.txIndex ?? 0) - (b.txIndex ?? 0));
  for (const activity of mined) {
    const ownFee = feePaid(activity, address.principal);
    const moves = movesOf(activity, address.principal, token);
    const date = koinlyDate(activity.time);
    const fee = (first: boolean) => (first && ownFee > 0n ? [plainUnits(ownFee, STX_DECIMALS), 'STX'] : ['', '']);
    moves.forEach((move, index) => {
      const amount = plainUnits(move.net < 0n ? -move.net : move.net, move.decimals);
      const sent = move.net < 0n ? [amount, move.currency] : ['', ''];
      const received = move.net > 0n ? [amount, move.currency] : ['', ''];
      rows.push([
        date,
        ...sent,
        ...received,
        ...fee(index === 0),
        '',
        '',
        move.label,
        describe(activity, address, move.note),
        activity.txId,
      ]);
    });
    // Koinly takes a fee paid on its own as a withdrawal of the fee labelled `cost` (a deposit or withdrawal row
    // needs an amount sent or received; the Fee column only adds to one).
    if (moves.length === 0 && ownFee > 0n)
      rows.push([
        date,
        plainUnits(ownFee, STX_DECIMALS),
        'STX',
        '',
        '',
        '',
        '',
        '',
        '',
        'cost',
        describe(activity, address, null),
        activity.txId,
      ]);
  }
  return rows;
}

/** The column a file of several addresses adds after Koinly's: whose row it is (the address). */
export const WALLET_COLUMN = 'Wallet';

/**
 * A whole file: the header, then each address's rows in turn. One address a file is what a tax tool imports as a
 * wallet; a file of several takes `wallet`, a last column naming each row's address, so that a transfer between
 * two of them (a send and a receive with one TxHash) is told apart.
 */
export function koinlyCsv(
  sections: readonly { readonly address: CsvAddress; readonly activities: readonly Activity[] }[],
  range: CsvRange,
  token: (asset: string) => TokenMetadata | undefined,
  options: { readonly wallet?: boolean } = {},
): string {
  let text = csvLine(options.wallet ? [...KOINLY_COLUMNS, WALLET_COLUMN] : KOINLY_COLUMNS);
  for (const { address, activities } of sections)
    for (const row of koinlyRows(activities, address, range, token))
      text += csvLine(options.wallet ? [...row, address.principal] : row);
  return text;
}
