import './offline.css';
import { useOnline } from '../../app/pwa/use-online.ts';

/** A slim line under the header while the device is offline. */
export function OfflineIndicator() {
  const online = useOnline();
  if (online) return null;
  return (
    <p className="offline" role="status">
      Offline — showing what this device last knew.
    </p>
  );
}
