import 'fake-indexeddb/auto';
import { createStore, set } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { newIdentity, RelaySettingsStore } from '../../src/store/relay-settings-store.ts';

let counter = 0;
const freshDb = () => createStore(`relay-settings-test-${(counter += 1)}`, 'records');

describe('relay settings store', () => {
  it('is off by default, with no identity until one is asked for', async () => {
    const store = new RelaySettingsStore(freshDb());
    await store.load();
    expect(store.get()).toEqual({ enabled: false, url: null, identity: null, cursor: null });
  });

  it('creates a random 16-byte id and 32-byte secret once, and keeps them across loads', async () => {
    const db = freshDb();
    const store = new RelaySettingsStore(db);
    const identity = await store.identity();
    expect(identity.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(identity.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await store.identity()).toBe(identity);
    expect(newIdentity().id).not.toBe(identity.id);
    await store.enable('http://127.0.0.1:3990', '7');
    await store.setCursor('9');
    const again = new RelaySettingsStore(db);
    await again.load();
    expect(again.get()).toEqual({ enabled: true, url: 'http://127.0.0.1:3990', identity, cursor: '9' });
    await again.disable();
    await store.load();
    expect(store.get()).toEqual({ enabled: false, url: 'http://127.0.0.1:3990', identity: null, cursor: null });
  });

  it('reads damaged records field by field: never on without a usable identity, never a plain-http remote', async () => {
    const db = freshDb();
    await set('relay', { version: 1, enabled: true, url: 'http://relay.example.com', identity: { id: 'short' } }, db);
    const store = new RelaySettingsStore(db);
    await store.load();
    expect(store.get()).toEqual({ enabled: false, url: null, identity: null, cursor: null });
  });
});

describe('records the service worker shares with the page', () => {
  it('are the page stores’ own databases (the worker may not import store/, so the names are repeated there)', async () => {
    const { DATABASES } = await import('../../src/store/keys.ts');
    const { SW_DATABASES } = await import('../../src/sw/records.ts');
    expect(SW_DATABASES.inbox.name).toBe(DATABASES.inbox);
    expect(SW_DATABASES.settings.name).toBe(DATABASES.settings);
    expect(SW_DATABASES.inbox.store).toBe('alerts');
    expect(SW_DATABASES.settings.store).toBe('records');
  });
});
