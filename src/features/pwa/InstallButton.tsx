import { promptInstall, useCanInstall } from '../../app/pwa/install-prompt.ts';

export function InstallButton() {
  const offered = useCanInstall();
  if (!offered) return null;
  return (
    <button type="button" onClick={() => void promptInstall()}>
      Install
    </button>
  );
}
