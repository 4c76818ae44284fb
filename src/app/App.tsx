import { InboxLink } from '../features/alerts/InboxLink.tsx';
import { InstallButton } from '../features/pwa/InstallButton.tsx';
import { OfflineIndicator } from '../features/pwa/OfflineIndicator.tsx';
import { StorageNotices } from '../features/pwa/StorageNotices.tsx';
import { HomeScreen } from '../features/watchlist/HomeScreen.tsx';
import { WatchNav } from '../features/watchlist/WatchNav.tsx';
import { Icon } from '../ui/Icon.tsx';
import { SETTINGS_ICON } from '../ui/icons.ts';
import { lazy, Suspense, type MouseEvent } from 'react';
import { BottomStack } from './BottomStack.tsx';
import { useStatuses } from './connection-status.ts';
import { matchRoute, navigate, usePathname } from './router.ts';

// Not needed for the first paint of the watch list: loaded when opened (and precached for offline use).
const AddressScreen = lazy(() =>
  import('../features/address/AddressScreen.tsx').then((module) => ({ default: module.AddressScreen })),
);
const InboxScreen = lazy(() =>
  import('../features/alerts/InboxScreen.tsx').then((module) => ({ default: module.InboxScreen })),
);
const PrivacyScreen = lazy(() =>
  import('../features/privacy/PrivacyScreen.tsx').then((module) => ({ default: module.PrivacyScreen })),
);
const ReceiveScreen = lazy(() =>
  import('../features/transfer/ReceiveScreen.tsx').then((module) => ({ default: module.ReceiveScreen })),
);
// Shown only once the engine reports (after the first paint) or an alert arrives.
const ConnectionStatus = lazy(() =>
  import('../features/pwa/ConnectionStatus.tsx').then((module) => ({ default: module.ConnectionStatus })),
);
const SettingsScreen = lazy(() =>
  import('../features/settings/SettingsScreen.tsx').then((module) => ({ default: module.SettingsScreen })),
);

const goTo = (path: string) => (event: MouseEvent) => {
  event.preventDefault();
  navigate(path);
};

export function App() {
  const pathname = usePathname();
  const followed = Object.keys(useStatuses()).length > 0;
  const route = matchRoute(pathname);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <a href="/" className="brand" onClick={goTo('/')}>
          Stacks Watch
        </a>
        <div className="header-actions">
          {followed && (
            <Suspense fallback={null}>
              <ConnectionStatus />
            </Suspense>
          )}
          <span className="header-install">
            <InstallButton />
          </span>
          <InboxLink />
          <a
            href="/settings"
            className="header-link"
            aria-current={route.screen === 'settings' ? 'page' : undefined}
            title="Settings"
            onClick={goTo('/settings')}
          >
            <Icon path={SETTINGS_ICON} />
            <span className="visually-hidden">Settings</span>
          </a>
        </div>
      </header>
      <OfflineIndicator />
      <main id="main" tabIndex={-1}>
        {/* In the first chunk: it must show when a newer version has replaced this tab's files. */}
        <StorageNotices />
        {route.screen === 'home' && (
          <>
            <h1 className="visually-hidden">Stacks Watch</h1>
            <HomeScreen />
          </>
        )}
        <Suspense fallback={<p className="note">Loading…</p>}>
          {route.screen === 'address' && (
            <div className="split">
              <WatchNav current={route.principal} />
              <div className="split-main">
                <AddressScreen key={route.principal} input={route.principal} />
              </div>
            </div>
          )}
          {route.screen === 'settings' && <SettingsScreen />}
          {route.screen === 'inbox' && <InboxScreen />}
          {route.screen === 'privacy' && <PrivacyScreen />}
          {route.screen === 'receive' && <ReceiveScreen />}
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
      <BottomStack />
    </>
  );
}
