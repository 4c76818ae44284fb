import { useEffect, useMemo } from 'react';
import { useAppStores } from '../../app/AppProviders.tsx';
import { historyPager, type PagerView } from '../../app/history-pager.ts';
import { useStore } from '../../app/use-store.ts';
import { judgeTokens, type TokenJudgement } from '../../domain/alerts/token-trust.ts';
import type { Network } from '../../domain/network.ts';
import type { AddressSnapshot } from '../../domain/state/snapshot.ts';

/** A history up to this long is read whole as soon as the card shows tokens; a longer one when the user asks. */
export const AUTO_JUDGE_TRANSACTIONS = 300;

export interface TokenJudging {
  readonly judgement: TokenJudgement;
  readonly view: PagerView;
  /** Reads the rest of the history, for a judgement the card did not start by itself. */
  readonly readAll: () => void;
}

/**
 * Judges the address's tokens from its whole history, kept on the device with the full history's pages: read at
 * once when short, on request when long. Nothing is read while the address holds no token or NFT.
 */
export function useTokenJudgement(
  network: Network,
  principal: string,
  snapshot: AddressSnapshot | undefined,
): TokenJudging {
  const { settings } = useAppStores();
  const pager = useMemo(() => historyPager(network, principal, settings.get), [network, principal, settings]);
  const holdings = snapshot?.holdings ?? null;
  const holdsAny = holdings !== null && holdings.tokens.size + holdings.nfts.size > 0;
  useEffect(() => {
    if (!holdsAny) return;
    void (async () => {
      await pager.start();
      await pager.readOn(1);
      const { progress } = pager.view.get();
      if (progress && !progress.complete && (progress.nodeTotal ?? Infinity) <= AUTO_JUDGE_TRANSACTIONS)
        await pager.readOn(Infinity);
    })();
    return () => pager.stop();
  }, [pager, holdsAny]);
  const view = useStore(pager.view);
  const judgement = useMemo<TokenJudgement>(
    () =>
      snapshot && holdings
        ? judgeTokens({
            principal,
            history: [...snapshot.recent, ...view.kept],
            pending: snapshot.pending,
            complete: view.progress?.complete ?? false,
            holdings,
          })
        : { judged: false },
    [principal, snapshot, holdings, view.kept, view.progress],
  );
  return { judgement, view, readAll: () => void pager.readOn(Infinity) };
}
