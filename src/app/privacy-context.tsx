import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { HostRecord } from '../domain/privacy/disclosure-record.ts';
import type { PrivacyRecord } from './privacy-record.ts';

const PrivacyContext = createContext<PrivacyRecord | null>(null);

export function PrivacyProvider({ record, children }: { record: PrivacyRecord | undefined; children: ReactNode }) {
  return <PrivacyContext value={record ?? null}>{children}</PrivacyContext>;
}

const NO_SUBSCRIPTION = () => () => {};

/** The hosts contacted from this device, newest first (null where the app runs without a record), and how to clear. */
export function usePrivacyRecord(): { hosts: readonly HostRecord[]; clear: () => Promise<void> } | null {
  const record = useContext(PrivacyContext);
  const version = useSyncExternalStore(record?.subscribe ?? NO_SUBSCRIPTION, () => record?.version ?? 0);
  return useMemo(
    () => (record ? { hosts: record.hosts(), clear: () => record.clear() } : null),
    // `version` changes when the record does: the hosts are read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [record, version],
  );
}
