import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, type TestBrowser } from './chromium.ts';
import { serveApp, type AppServer } from '../../../scripts/serve-app.ts';

export interface Harness {
  readonly server: AppServer;
  readonly browser: TestBrowser;
}

/** One served build and one fresh Chromium profile for the test file, closed after it. */
export function serveBuiltAppForFile(): Harness {
  const harness = {} as { server: AppServer; browser: TestBrowser };
  beforeAll(async () => {
    harness.server = await serveApp();
    harness.browser = await launchBrowser();
  });
  afterAll(async () => {
    await harness.browser?.close();
    await harness.server?.close();
  });
  return harness;
}
