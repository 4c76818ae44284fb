import { useEffect, useState } from 'react';
import { fetchDemoAccounts, type DemoAccount } from '../chain/devnet-accounts.ts';
import { runtimeConfig } from '../chain/page/runtime-config-load.ts';

export type DemoAccountsState =
  | { readonly status: 'none' }
  | { readonly status: 'ready'; readonly url: string; readonly accounts: readonly DemoAccount[] }
  | { readonly status: 'unreachable'; readonly url: string; readonly reason: string };

/** Looked up once per page: whether a local devnet was started next to the app, and its demo accounts. */
let lookup: Promise<DemoAccountsState> | null = null;

async function lookUpDemoAccounts(): Promise<DemoAccountsState> {
  const { devnet } = await runtimeConfig();
  if (!devnet) return { status: 'none' };
  const accounts = await fetchDemoAccounts(devnet.url);
  return accounts.ok
    ? { status: 'ready', url: devnet.url, accounts: accounts.value }
    : { status: 'unreachable', url: devnet.url, reason: accounts.error };
}

export function useDemoAccounts(): DemoAccountsState {
  const [state, setState] = useState<DemoAccountsState>({ status: 'none' });
  useEffect(() => {
    let live = true;
    lookup ??= lookUpDemoAccounts();
    void lookup.then((result) => live && setState(result));
    return () => {
      live = false;
    };
  }, []);
  return state;
}
