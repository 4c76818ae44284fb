import { InboxLink } from '../features/alerts/InboxLink.tsx';
import { Toasts } from '../features/alerts/Toasts.tsx';
import { ConnectionStatus } from '../features/pwa/ConnectionStatus.tsx';
import { InstallButton } from '../features/pwa/InstallButton.tsx';
import { OfflineIndicator } from '../features/pwa/OfflineIndicator.tsx';
import { UpdatePrompt } from '../features/pwa/UpdatePrompt.tsx';
import { HomeScreen } from '../features/watchlist/HomeScreen.tsx';
import { lazy, Suspense } from 'react';
import { matchRoute, navigate, usePathname } from './router.ts';

// Not needed for the first paint of the watch list: loaded when opened (and precached for offline use).
const AddressScreen = lazy(() =>
  import('../features/address/AddressScreen.tsx').then((module) => ({ default: module.AddressScreen })),
);
const InboxScreen = lazy(() =>
  import('../features/alerts/InboxScreen.tsx').then((module) => ({ default: module.InboxScreen })),
);
const SettingsScreen = lazy(() =>
  import('../features/settings/SettingsScreen.tsx').then((module) => ({ default: module.SettingsScreen })),
);

export function App() {
  const route = matchRoute(usePathname());
  return (
    <>
      <header className="app-header">
        <a
          href="/"
          className="brand"
          onClick={(event) => {
            event.preventDefault();
            navigate('/');
          }}
        >
          Stacks Watch
        </a>
        <div className="header-actions">
          <ConnectionStatus />
          <OfflineIndicator />
          <InstallButton />
          <InboxLink />
          <a
            href="/settings"
            onClick={(event) => {
              event.preventDefault();
              navigate('/settings');
            }}
          >
            Settings
          </a>
        </div>
      </header>
      <main id="main">
        {route.screen === 'home' && (
          <>
            <h1 className="visually-hidden">Stacks Watch</h1>
            <HomeScreen />
          </>
        )}
        <Suspense fallback={<p className="note">Loading…</p>}>
          {route.screen === 'address' && <AddressScreen key={route.principal} input={route.principal} />}
          {route.screen === 'settings' && <SettingsScreen />}
          {route.screen === 'inbox' && <InboxScreen />}
        </Suspense>
        {route.screen === 'not-found' && (
          <section>
            <h1>Page not found</h1>
            <p>
              There is nothing at this address. <a href="/">Back to your watch list</a>.
            </p>
          </section>
        )}
      </main>
      <Toasts />
      <UpdatePrompt />
    </>
  );
}
