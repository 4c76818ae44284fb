import type { PrincipalKind, ReadPrincipal } from '../address/address-shape.ts';
import { describeLabelError, normaliseLabel } from '../address/label.ts';
import { isNetwork, type Network } from '../network.ts';
import { err, ok, type Result } from '../result.ts';
import { isRecord } from '../is-record.ts';

/** One watched principal. The canonical principal is its identity: a list never holds it twice. */
export interface WatchEntry {
  readonly principal: string;
  readonly network: Network;
  readonly kind: PrincipalKind;
  readonly label: string;
  /** The BNS name it was added by, shown beside the address. */
  readonly name?: string;
  /** Epoch milliseconds. */
  readonly addedAt: number;
}

const BNS_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+){1,2}$/;

/**
 * Checks a watch entry that came from outside the running app (a file, a stored record): the principal is read by
 * `read` (the full parser for a file, the stored shape for a record), the network must agree with it, the label
 * must be valid.
 */
export function readWatchEntry(raw: unknown, fallbackAddedAt: number, read: ReadPrincipal): Result<WatchEntry, string> {
  const fields = typeof raw === 'string' ? { principal: raw } : raw;
  if (!isRecord(fields)) {
    return err('expected an address or an object with a “principal”');
  }
  const text = fields['principal'] ?? fields['address'];
  if (typeof text !== 'string') return err('the “principal” is missing or not text');
  const parsed = read(text);
  if (!parsed.ok) return parsed;

  const network = fields['network'];
  if (network !== undefined && !isNetwork(network))
    return err(`the network “${String(network)}” is not mainnet or testnet`);
  if (network !== undefined && network !== parsed.value.network) {
    return err(`${parsed.value.principal} is a ${parsed.value.network} address but is marked ${network}`);
  }
  const rawLabel = fields['label'] ?? '';
  if (typeof rawLabel !== 'string') return err('the label is not text');
  const label = normaliseLabel(rawLabel);
  if (!label.ok) return err(describeLabelError(label.error));

  const addedAt = fields['addedAt'];
  if (addedAt !== undefined && !isTimestamp(addedAt)) return err('“addedAt” is not a time in milliseconds');
  const name = fields['name'];
  if (name !== undefined && (typeof name !== 'string' || !BNS_NAME.test(name)))
    return err('the BNS “name” is not a name like alice.btc');
  return ok({
    principal: parsed.value.principal,
    network: parsed.value.network,
    kind: parsed.value.kind,
    label: label.value,
    ...(name ? { name } : {}),
    addedAt: addedAt ?? fallbackAddedAt,
  });
}

const isTimestamp = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
