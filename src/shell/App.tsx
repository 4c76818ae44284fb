import {
  AddressScreen,
  ConnectionStatus,
  HomeScreen,
  InboxLink,
  InboxScreen,
  InstallButton,
  OfflineIndicator,
  PrivacyScreen,
  ReceiveScreen,
  SettingsScreen,
  StorageNotices,
  WatchNav,
} from './features.ts';
import { Icon } from '../ui/Icon.tsx';
import { SETTINGS_ICON } from '../ui/icons.ts';
import { lazy, Suspense, type MouseEvent } from 'react';
import { BottomStack } from './BottomStack.tsx';
import { useStatuses } from '../app/connection-status.ts';
import { matchRoute, navigate, usePathname } from '../app/router.ts';

// Not in the first paint: a page load leaves the focus at the page's start, and the screen's title is set a moment
// later, when this chunk (precached) has loaded.
const RouteCues = lazy(() => import('./RouteCues.tsx').then((module) => ({ default: module.RouteCues })));

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
      <Suspense fallback={null}>
        <RouteCues route={route} pathname={pathname} />
      </Suspense>
    </>
  );
}
