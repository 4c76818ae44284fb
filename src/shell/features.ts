import { lazy } from 'react';

/*
 * Every feature the shell composes, in one place: the shell imports features/ only through this module, and app/ (the
 * state the features read) never imports either (eslint.config.js).
 */

// In the first chunk: the first screen, the header's links and what must show at once.
export { InboxLink } from '../features/alerts/InboxLink.tsx';
export { InstallButton } from '../features/pwa/InstallButton.tsx';
export { OfflineIndicator } from '../features/pwa/OfflineIndicator.tsx';
export { StorageNotices } from '../features/pwa/StorageNotices.tsx';
export { UpdatePrompt } from '../features/pwa/UpdatePrompt.tsx';
export { HomeScreen } from '../features/watchlist/HomeScreen.tsx';
export { UndoBar } from '../features/watchlist/UndoBar.tsx';
export { WatchNav } from '../features/watchlist/WatchNav.tsx';

// Not needed for the first paint of the watch list: loaded when opened (and precached for offline use).
export const AddressScreen = lazy(() =>
  import('../features/address/AddressScreen.tsx').then((module) => ({ default: module.AddressScreen })),
);
export const InboxScreen = lazy(() =>
  import('../features/alerts/InboxScreen.tsx').then((module) => ({ default: module.InboxScreen })),
);
export const PrivacyScreen = lazy(() =>
  import('../features/privacy/PrivacyScreen.tsx').then((module) => ({ default: module.PrivacyScreen })),
);
export const ReceiveScreen = lazy(() =>
  import('../features/transfer/ReceiveScreen.tsx').then((module) => ({ default: module.ReceiveScreen })),
);
export const SettingsScreen = lazy(() =>
  import('../features/settings/SettingsScreen.tsx').then((module) => ({ default: module.SettingsScreen })),
);
// Shown only once the engine reports (after the first paint) or an alert arrives.
export const ConnectionStatus = lazy(() =>
  import('../features/pwa/ConnectionStatus.tsx').then((module) => ({ default: module.ConnectionStatus })),
);
// Loaded with the first alert.
export const Toasts = lazy(() =>
  import('../features/alerts/Toasts.tsx').then((module) => ({ default: module.Toasts })),
);
