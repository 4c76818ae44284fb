import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy… and waitFor poll until their condition holds: a lazily loaded screen on a busy two-core machine can take
// longer than the library's one-second default to appear (privacy-screen failed so in a clean-clone run). A wait
// that finds its element returns at once; only a real failure spends the whole time. 90 s, as the browser files' polls:
// beside the rest of the suite a page that renders in 1 s alone took over 48 s (address-page, every stage at once).
configure({ asyncUtilTimeout: 90_000 });

// jsdom lays nothing out and has no scrollIntoView, which every browser has: a no-op stands in for the platform's.
Element.prototype.scrollIntoView ??= () => {};

afterEach(() => cleanup());
