import { useSyncExternalStore } from 'react';
import { canInstall, promptInstall, subscribeToInstallOffer } from '../../app/pwa/install-prompt.ts';

export function InstallButton() {
  const offered = useSyncExternalStore(subscribeToInstallOffer, canInstall);
  if (!offered) return null;
  return (
    <button type="button" onClick={() => void promptInstall()}>
      Install
    </button>
  );
}
