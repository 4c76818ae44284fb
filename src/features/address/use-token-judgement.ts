import { useEffect, useMemo, useRef, useState } from 'react';
import { useAppStores } from '../../app/AppProviders.tsx';
import { isLive, useStatuses } from '../../app/connection-status.ts';
import { historyPager, type PagerView } from '../../app/history-pager.ts';
import { useOnline } from '../../app/pwa/use-online.ts';
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
 * once when short, on request when long. Nothing is read while the address holds no token or NFT. A read that
 * failed (the device offline, the node away) is made again once the node's feed is live again, the whole history if
 * the user had asked for it: the card never goes on saying "offline" once it is not.
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
  const online = useOnline();
  const statuses = useStatuses();
  const reachable = online && isLive(statuses, network);
  /** The user asked for the whole history: what is read again after a failure. */
  const wantsAll = useRef(false);
  const [tries, setTries] = useState(0);
  useEffect(() => {
    if (!reachable || pager.view.get().problem === null) return;
    if (wantsAll.current) void pager.readOn(Infinity);
    else setTries((before) => before + 1);
  }, [reachable, pager]);
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
  }, [pager, holdsAny, tries]);
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
  const readAll = () => {
    wantsAll.current = true;
    void pager.readOn(Infinity);
  };
  return { judgement, view, readAll };
}
