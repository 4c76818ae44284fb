import { useOnline } from '../../app/pwa/use-online.ts';

export function OfflineIndicator() {
  const online = useOnline();
  if (online) return null;
  return (
    <p className="offline" role="status">
      Offline — showing what this device last knew.
    </p>
  );
}
