import { useState } from 'react';
import { useRuntimeConfig } from '../../app/use-runtime-config.ts';
import { useNaming } from '../../app/use-naming.ts';
import { grouped } from '../../domain/amount.ts';
import { explorerTxUrl } from '../../domain/explorer.ts';
import type { Network } from '../../domain/network.ts';
import type { PoisoningSuspect } from '../../domain/address/lookalike.ts';
import type { Activity } from '../../domain/state/snapshot.ts';
import { calledWith, postConditionWords, triedWords } from '../../domain/text/attempt-text.ts';
import { callPurpose } from '../../domain/text/effect-text.ts';
import { exactTime } from '../../domain/text/time-text.ts';
import { feeText, movementLines, nothingMovedText, statusLine } from '../../domain/text/tx-detail.ts';
import { PoisoningWarning } from './PoisoningWarning.tsx';

/** Everything known of one transaction: id, status and why, block and time, fee, nonce, memo, every movement. */
export function TransactionDetail({
  activity,
  network,
  suspect = null,
}: {
  activity: Activity;
  network: Network;
  /** Set when it came from a lookalike of a trusted address. */
  suspect?: PoisoningSuspect | null;
}) {
  const naming = useNaming();
  const config = useRuntimeConfig();
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const movements = movementLines(activity, naming);
  const customApi = network === 'testnet' ? (config?.devnet?.url ?? null) : null;
  return (
    <>
      {suspect && <PoisoningWarning suspect={suspect} naming={naming} full />}
      <dl className="tx-detail" aria-label="Transaction detail">
        <dt>Transaction</dt>
        <dd>
          <code className="tx-id">{activity.txId}</code>{' '}
          <button
            type="button"
            onClick={() =>
              void navigator.clipboard?.writeText(activity.txId).then(
                () => setCopied('copied'),
                () => setCopied('failed'),
              )
            }
          >
            {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed: select the id instead' : 'Copy id'}
          </button>
        </dd>
        <dt>Status</dt>
        <dd>
          {statusLine(activity)}
          {activity.replacedBy ? ` Replaced by ${activity.replacedBy.slice(0, 10)}…` : ''}
        </dd>
        {activity.blockHeight !== null && (
          <>
            <dt>Block</dt>
            <dd>
              {grouped(BigInt(activity.blockHeight))} · {exactTime(activity.time * 1000)}
            </dd>
          </>
        )}
        {activity.sender && (
          <>
            <dt>Sent by</dt>
            <dd>
              {naming.party(activity.sender)}
              {activity.nonce !== undefined ? ` · nonce ${activity.nonce}` : ''}
            </dd>
          </>
        )}
        <dt>Fee</dt>
        <dd>{feeText(activity)}</dd>
        {activity.contractCall && (
          <>
            <dt>Call</dt>
            <dd>
              {callPurpose(activity.contractCall)}
              <code className={callPurpose(activity.contractCall) ? 'detail-line' : undefined}>
                {activity.contractCall.contractId}.{activity.contractCall.functionName}
              </code>
            </dd>
          </>
        )}
        {activity.contractCall && activity.status === 'failed' && activity.attempt && (
          <>
            <dt>Tried</dt>
            <dd>
              {triedWords(activity.contractCall, activity.attempt, naming)}
              <code className="detail-line">{calledWith(activity.contractCall.functionName, activity.attempt)}</code>
            </dd>
            {activity.attempt.postConditions.length > 0 && (
              <>
                <dt>Allowed to move</dt>
                <dd>
                  <ul className="movements">
                    {activity.attempt.postConditions.map((condition, index) => (
                      <li key={index}>{postConditionWords(condition, naming)}</li>
                    ))}
                  </ul>
                </dd>
              </>
            )}
          </>
        )}
        {activity.memo && (
          <>
            <dt>Memo</dt>
            <dd className="memo">{activity.memo}</dd>
          </>
        )}
        <dt>Movements</dt>
        <dd>
          {movements === null ? (
            <span className="muted">Not read yet: they are read from the node when the address page opens.</span>
          ) : movements.length === 0 ? (
            <span className="muted">{nothingMovedText(activity)}</span>
          ) : (
            <ul className="movements">
              {movements.map((line, index) => (
                <li key={index}>
                  {line.kind === 'mint'
                    ? `${line.what} minted to ${line.to}`
                    : line.kind === 'burn'
                      ? `${line.what} burned by ${line.from}`
                      : `${line.what} from ${line.from} to ${line.to}`}
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Explorer</dt>
        <dd>
          <a href={explorerTxUrl(activity.txId, network, customApi)} target="_blank" rel="noopener noreferrer">
            Open this transaction in the explorer
          </a>
        </dd>
      </dl>
    </>
  );
}
