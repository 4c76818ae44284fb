import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`): the same engine without the browser's own UI, at
 * about half the CPU of the full browser in headless mode (tests/e2e/list-move.spec.ts: 46 s of Chromium's CPU
 * instead of 86, 49 s instead of 70 s of wall time). It shows no system notification.
 */
const SHELL_CANDIDATES = ['/usr/bin/chromium-headless-shell'];

/**
 * The system's Chromium or Chrome: tests never download a browser. `shell`: its headless shell where it is installed
 * (for a file that looks at no system notification), else the full browser. `CHROME_PATH` overrides both.
 */
export function findChromium(options: { shell?: boolean } = {}): string {
  const fromEnv = process.env['CHROME_PATH'];
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new Error(`CHROME_PATH is set to ${fromEnv}, but no file is there.`);
  }
  const shell = options.shell ? SHELL_CANDIDATES.find((path) => existsSync(path)) : undefined;
  if (shell) return shell;
  const found = CANDIDATES.find((path) => existsSync(path));
  if (found) return found;
  throw new Error(
    'The browser tests need Chromium or Google Chrome and found neither. On Debian or Ubuntu: ' +
      '`sudo apt-get install chromium`; elsewhere install Chrome, or set CHROME_PATH to its executable.',
  );
}

const BASE_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/**
 * Tests never reach a public host: every name but this machine's fails to resolve inside the browser, so the app's
 * default nodes (the public API) are refused as on an offline machine. (Request routing would do it too, but
 * Playwright turns the HTTP cache off when routing, and the app relies on it to revalidate.)
 */
export const LOOPBACK_ONLY_FLAG = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1';
const FLAGS = [...BASE_FLAGS, LOOPBACK_ONLY_FLAG];

export interface TestBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * A persistent profile in a fresh temporary folder: installability checks report "in-incognito" for a
 * non-persistent context, and service workers behave as they do for a real user.
 */
export async function launchBrowser(
  options: {
    args?: readonly string[];
    hasTouch?: boolean;
    /** The file looks at no system notification: Chromium's headless shell will do (see findChromium). */
    shell?: boolean;
  } = {},
): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'stacks-watch-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium({ shell: options.shell ?? false }),
    headless: true,
    // Given args replace the default host resolver rules (a test mapping its own hostname gives its own).
    args: options.args ? [...BASE_FLAGS, ...options.args] : FLAGS,
    viewport: { width: 412, height: 860 },
    hasTouch: options.hasTouch ?? false,
  });
  // A wait for a condition, not for a time: Playwright's 30 s is a page load or two beside a busy suite.
  context.setDefaultTimeout(90_000);

  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
