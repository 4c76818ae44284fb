import { useMemo } from 'react';
import type { HostRecord } from '../domain/privacy/disclosure-record.ts';
import { useLaterStores } from './AppProviders.tsx';
import { useStore } from './use-store.ts';

/** The hosts contacted from this device, newest first (null where the app runs without a record), and how to clear. */
export function usePrivacyRecord(): { hosts: readonly HostRecord[]; clear: () => Promise<void> } | null {
  const { privacy: record } = useLaterStores();
  const version = useStore(record?.changes);
  return useMemo(
    () => (record ? { hosts: record.hosts(), clear: () => record.clear() } : null),
    // `version` changes when the record does: the hosts are read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [record, version],
  );
}
