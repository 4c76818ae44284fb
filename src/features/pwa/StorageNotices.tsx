import { dismissStorageNotice, useStorageHealth } from '../../app/storage-recovery.ts';
import { useWatchlistState } from '../../app/watchlist-context.tsx';
import {
  BLOCKED_MESSAGE,
  describeCleared,
  describeDamagedRecords,
  REPLACED_MESSAGE,
} from '../../domain/text/storage-messages.ts';
import { downloadDamagedLater } from '../watchlist/download-later.ts';

/**
 * What happened to the device's storage under the app, on every screen: a tab of an older version holding it up,
 * a newer version taking it over, site data cleared, records that do not read (the watch list's own damage is
 * told beside the list, where it is decided).
 */
export function StorageNotices() {
  const health = useStorageHealth();
  const watchlist = useWatchlistState();
  const addresses = watchlist.status === 'ready' ? watchlist.entries.length : null;
  return (
    <>
      {health.blocked.length > 0 && (
        <div role="alert" className="error storage-alert">
          <p>{BLOCKED_MESSAGE}</p>
        </div>
      )}
      {health.replacedBy !== null && (
        <div role="alert" className="error storage-alert">
          <p>{REPLACED_MESSAGE}</p>
          <button type="button" className="primary" onClick={() => location.reload()}>
            Reload this tab
          </button>
        </div>
      )}
      {health.cleared && (
        <div role="alert" className="notice storage-alert">
          <p>{describeCleared(addresses)}</p>
          <button type="button" onClick={() => dismissStorageNotice('cleared')}>
            Dismiss
          </button>
        </div>
      )}
      {health.damaged.length > 0 && (
        <div role="alert" className="notice storage-alert">
          <p>{describeDamagedRecords(health.damaged)}</p>
          <div className="storage-actions">
            <button type="button" onClick={() => downloadDamagedLater(health.damaged)}>
              Download the damaged data
            </button>
            <button type="button" onClick={() => dismissStorageNotice('damaged')}>
              Dismiss
            </button>
          </div>
        </div>
      )}
    </>
  );
}
