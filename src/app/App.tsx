import { AddressScreen } from '../features/address/AddressScreen.tsx';
import { ConnectionStatus } from '../features/pwa/ConnectionStatus.tsx';
import { InstallButton } from '../features/pwa/InstallButton.tsx';
import { OfflineIndicator } from '../features/pwa/OfflineIndicator.tsx';
import { UpdatePrompt } from '../features/pwa/UpdatePrompt.tsx';
import { SettingsScreen } from '../features/settings/SettingsScreen.tsx';
import { HomeScreen } from '../features/watchlist/HomeScreen.tsx';
import { matchRoute, navigate, usePathname } from './router.ts';

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
        {route.screen === 'address' && <AddressScreen key={route.principal} input={route.principal} />}
        {route.screen === 'settings' && <SettingsScreen />}
        {route.screen === 'not-found' && (
          <section>
            <h1>Page not found</h1>
            <p>
              There is nothing at this address. <a href="/">Back to your watch list</a>.
            </p>
          </section>
        )}
      </main>
      <UpdatePrompt />
    </>
  );
}
