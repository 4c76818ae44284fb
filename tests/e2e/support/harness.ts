import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, type TestBrowser } from './chromium.ts';
import { startDevnet, type RunningDevnet } from '../../../mocks/devnet/server.ts';
import { serveApp, type AppServer } from '../../../scripts/serve-app.ts';

export interface Harness {
  readonly server: AppServer;
  readonly browser: TestBrowser;
}

/**
 * One served build and one fresh Chromium profile for the test file, closed after it. `shell`: the file looks at no
 * system notification, and Chromium's headless shell will do (support/chromium.ts).
 */
export function serveBuiltAppForFile(options: { shell?: boolean } = {}): Harness {
  const harness = {} as { server: AppServer; browser: TestBrowser };
  beforeAll(async () => {
    harness.server = await serveApp();
    harness.browser = await launchBrowser(options);
  });
  afterAll(async () => {
    await harness.browser?.close();
    await harness.server?.close();
  });
  return harness;
}

export interface DevnetHarness extends Harness {
  readonly devnet: RunningDevnet;
}

export interface World extends DevnetHarness {
  close(): Promise<void>;
}

/** A devnet, the built app served next to it as `npm start` serves it, and a fresh Chromium profile. */
export async function openWorld(options: {
  blockMs: number | null;
  activity?: boolean;
  now?: () => number;
  /** A phone's touch screen (`page.touchscreen`) as well as a mouse. */
  hasTouch?: boolean;
  /** The file looks at no system notification: Chromium's headless shell will do (support/chromium.ts). */
  shell?: boolean;
}): Promise<World> {
  const { hasTouch, shell, ...devnetOptions } = options;
  const devnet = await startDevnet({ port: 0, ...devnetOptions });
  const server = await serveApp({ runtimeConfig: { devnet: { url: devnet.url } } });
  const browser = await launchBrowser({ hasTouch, shell });
  return {
    devnet,
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
      await devnet.close();
    },
  };
}

/** One world for the whole test file, closed after it. */
export function serveAppWithDevnetForFile(options: {
  blockMs: number | null;
  activity?: boolean;
  hasTouch?: boolean;
  /** The devnet's clock (its block times), when a test moves it: a chain whose history spans years. */
  now?: () => number;
  /** The file looks at no system notification: Chromium's headless shell will do (support/chromium.ts). */
  shell?: boolean;
}): DevnetHarness {
  const harness = {} as World;
  beforeAll(async () => {
    Object.assign(harness, await openWorld(options));
  });
  afterAll(async () => {
    await harness.close?.();
  });
  return harness;
}
