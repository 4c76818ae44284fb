import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The service worker owns the system tray: it alone shows, reads or closes the app's notifications, so that one
 * module decides what is on screen. The page asks it (app/pwa/sw-bridge.ts) and never touches the tray itself.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');
const OWNER = join(SRC, 'sw');
/** What puts a notification on the tray or reads it back. */
const TOUCHING_THE_TRAY = /\bnew\s+Notification\s*\(|\.(getNotifications|showNotification)\s*\(/;

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === OWNER ? [] : modules(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the tray has one owner', () => {
  it('no module of src/ outside the service worker shows, reads or closes a notification', () => {
    const all = modules(SRC);
    expect(all.length).toBeGreaterThan(100);
    const touching = all
      .filter((path) => TOUCHING_THE_TRAY.test(readFileSync(path, 'utf8')))
      .map((path) => relative(ROOT, path));
    expect(touching).toEqual([]);
  });

  it('the rule finds what it looks for', () => {
    const owner = readdirSync(OWNER).map((name) => readFileSync(join(OWNER, name), 'utf8'));
    expect(owner.some((text) => TOUCHING_THE_TRAY.test(text))).toBe(true);
    expect(TOUCHING_THE_TRAY.test('const shown = new Notification(title, { body });')).toBe(true);
  });
});
