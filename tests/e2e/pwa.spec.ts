import { c32address } from 'c32check';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { axeViolations, recordServiceWorkerStates, waitForServiceWorkerControl } from './support/app-page.ts';
import { serveBuiltAppForFile } from './support/harness.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const BUILT_SW = readFileSync(new URL('../../dist/sw.js', import.meta.url), 'utf8');

const app = serveBuiltAppForFile();

describe('the installed app', () => {
  it('is controlled by its service worker from the first visit', async () => {
    const page = await app.browser.context.newPage();
    await page.goto(app.server.url);
    expect(await waitForServiceWorkerControl(page)).toBe(`${app.server.url}/sw.js`);
    await page.close();
  });

  it('is installable: Chromium reports no installability errors', async () => {
    const page = await app.browser.context.newPage();
    await page.goto(app.server.url);
    await waitForServiceWorkerControl(page);
    const cdp = await app.browser.context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: unknown[];
    };
    expect(installabilityErrors).toEqual([]);

    const { manifest } = await page.evaluate(async () => ({
      manifest: await (await fetch(document.querySelector<HTMLLinkElement>('link[rel=manifest]')!.href)).json(),
    }));
    expect(manifest).toMatchObject({
      name: 'Stacks Watch',
      short_name: 'Stacks Watch',
      display: 'standalone',
      start_url: '/',
      scope: '/',
    });
    expect(manifest.icons.map((icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    await page.close();
  });

  it('offers a waiting new version with a prompt, and reloads only when asked', async () => {
    const page = await app.browser.context.newPage();
    await page.goto(app.server.url);
    await waitForServiceWorkerControl(page);
    const workerStates = await recordServiceWorkerStates(page);
    await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

    app.server.override('/sw.js', `${BUILT_SW}\n// a new release\n`);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());

    const prompt = page.getByRole('status').filter({ hasText: 'A new version is ready.' });
    await prompt.waitFor();
    expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(
      true,
    );
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);

    await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]).catch(
      (error: unknown) => {
        // Once seen under a load of 15 (the origin answered no navigation for minutes): say where things stood.
        const states = workerStates().join('\n  ');
        const traffic = app.server.traffic().join('\n  ');
        throw new Error(`${String(error)}\nworker versions:\n  ${states}\nserver:\n  ${traffic}`);
      },
    );
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBeUndefined();
    expect(
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null),
    ).toBeNull();
    await waitForServiceWorkerControl(page);
    expect(await prompt.count()).toBe(0);
    await page.close();
  });
});

describe('accessibility (axe-core)', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`finds no violations on the main screens, ${colorScheme}`, async () => {
      const page = await app.browser.context.newPage();
      await page.emulateMedia({ colorScheme });
      await page.goto(app.server.url);
      // The shell, as it paints before any script.
      expect(await axeViolations(page, AXE_SOURCE)).toEqual([]);
      await page.getByRole('button', { name: 'Add address' }).waitFor();
      expect(await axeViolations(page, AXE_SOURCE)).toEqual([]);

      await page.getByRole('button', { name: 'Add address' }).click();
      await page.getByLabel('Address').fill('SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ8');
      await page.getByRole('button', { name: 'Watch' }).click();
      await page.getByRole('alert').waitFor();
      expect(await axeViolations(page, AXE_SOURCE)).toEqual([]);

      // One address per run: the profile is shared, and a duplicate keeps the add sheet open with its reason.
      await page.getByLabel('Address').fill(c32address(22, (colorScheme === 'light' ? '1a' : '2b').repeat(20)));
      await page.getByLabel('Label').fill(`Cold wallet ${colorScheme}`);
      await page.getByRole('button', { name: 'Watch' }).click();
      await page.getByRole('listitem').first().waitFor();
      expect(await axeViolations(page, AXE_SOURCE)).toEqual([]);

      await page.getByRole('link', { name: new RegExp(`^Cold wallet ${colorScheme}`) }).click();
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await axeViolations(page, AXE_SOURCE)).toEqual([]);
      await page.close();
    });
  }
});
