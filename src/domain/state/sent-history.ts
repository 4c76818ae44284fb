import type { SentHistory } from '../address/lookalike.ts';
import { isRecord } from '../is-record.ts';

const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * What a stored snapshot record (`{ version, snapshot }`, written by store/snapshot-book.ts) says a watched address
 * sent: the part the lookalike check reads, for the service worker, which may not import store/. Read leniently: a
 * record or an activity that does not read is left out rather than refused, since the watched addresses themselves
 * are trusted regardless and the worst outcome is a lookalike of a past recipient left unflagged.
 */
export function sentHistoryOf(raw: unknown, principal: string): SentHistory | undefined {
  const snapshot = isRecord(raw) ? raw['snapshot'] : undefined;
  if (!isRecord(snapshot) || snapshot['principal'] !== principal || !Array.isArray(snapshot['recent']))
    return undefined;
  const recent: SentHistory['recent'][number][] = [];
  for (const activity of snapshot['recent']) {
    if (!isRecord(activity)) continue;
    const { status, sender, kind, counterparty, movements } = activity;
    if (status !== 'success' || (kind !== 'token_transfer' && kind !== 'contract_call' && kind !== 'other')) continue;
    recent.push({
      status,
      kind,
      counterparty: textOrNull(counterparty),
      ...(typeof sender === 'string' ? { sender } : {}),
      movements: Array.isArray(movements)
        ? movements
            .filter(isRecord)
            .map((m) => ({ sender: textOrNull(m['sender']), recipient: textOrNull(m['recipient']) }))
        : null,
    });
  }
  return { principal, recent };
}
