import { useEffect, useMemo } from 'react';
import { useAppStores } from '../../app/AppProviders.tsx';
import { historyPager, type PagerView } from '../../app/history-pager.ts';
import { useStore } from '../../app/use-store.ts';
import { judgeTokens, type TokenJudgement } from '../../domain/alerts/token-trust.ts';
import type { Network } from '../../domain/network.ts';
import type { AddressSnapshot } from '../../domain/state/snapshot.ts';

/**
 * A history up to this long (three pages) is read whole as soon as the card shows tokens, two pages at a time so that
 * an export waiting for the history's lock is never held up long; a longer one when the user asks.
 */
export const AUTO_JUDGE_TRANSACTIONS = 60;
const PAGES_A_STEP = 2;

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
    let stopped = false;
    void (async () => {
      await pager.start();
      // A first page says how long the history is; at most a few steps more, never while another read goes on.
      for (let step = 0; step <= AUTO_JUDGE_TRANSACTIONS / 20 && !stopped && !pager.view.get().reading; step++) {
        await pager.readOn(step === 0 ? 1 : PAGES_A_STEP);
        const { progress, problem, busyElsewhere } = pager.view.get();
        const small = (progress?.nodeTotal ?? Infinity) <= AUTO_JUDGE_TRANSACTIONS;
        if (!progress || progress.complete || problem !== null || busyElsewhere || !small) return;
      }
    })();
    return () => {
      stopped = true;
      pager.stop();
    };
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
