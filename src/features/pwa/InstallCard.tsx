import { useCanInstall } from '../../app/pwa/install-prompt.ts';
import { InstallButton } from './InstallButton.tsx';

/**
 * Settings' offer to install, said in words, where the header has no room for its Install button (a phone); a
 * wider screen has the header's.
 */
export function InstallCard() {
  const offered = useCanInstall();
  if (!offered) return null;
  return (
    <section className="card install-card phone-only" aria-labelledby="install-heading">
      <h2 id="install-heading">Install Stacks Watch</h2>
      <p className="note">Open it from your home screen like an app, with your watch list there even offline.</p>
      <InstallButton />
    </section>
  );
}
