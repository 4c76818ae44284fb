import { createHash } from 'node:crypto';
import type { DevnetChain } from './chain.ts';

/**
 * The real API's ETag of a principal route (v9.0.2, `cache-controller.ts` and `getPrincipalLastActivityTxIds`):
 * sha256 of the principal's newest confirmed transaction, its newest mempool transaction (routes that show pending
 * activity: `balances/stx`, `nonces`, `mempool/transactions`) and its pox-4 lock state ("locked" while the newest
 * pox-4 lock has not reached its unlock height). Nothing else: a pox-5 lock that ends at its unlock height, or a
 * bond that matures, leaves the ETag as it was though the answer changed, and a client revalidating its cached copy
 * gets a 304 and the stale body. Null for a principal with no activity at all: the API sends no ETag then.
 */
export function principalEtag(chain: DevnetChain, principal: string, withMempool: boolean): string | null {
  const confirmed = chain.transactionsOf(principal)[0]?.signed.txId ?? '';
  const mempool = withMempool
    ? (chain
        .pendingOf(principal)
        .filter(({ signed }) => {
          const recipient = signed.intent.kind === 'stx' ? signed.intent.recipient : null;
          return signed.sender === principal || recipient === principal;
        })
        .at(-1)?.signed.txId ?? '')
    : '';
  if (!confirmed && !mempool) return null;
  return createHash('sha256')
    .update(`${confirmed}:${mempool}:${poxState(chain, principal)}`)
    .digest('hex');
}

/** The API's `pox_state`, read from pox-4 events only: the devnet's pox-4 locks are genesis's and `stack-stx`'s. */
function poxState(chain: DevnetChain, principal: string): string {
  const account = chain.state.stx.get(principal);
  if (!account || account.locked === 0n) return '';
  return chain.state.staking.poxVersionOf(principal, account.lockTxId) === 4 ? 'locked' : '';
}
