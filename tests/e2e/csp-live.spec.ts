import { createServer, type Socket } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApp, type AppServer } from '../../scripts/serve-app.ts';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';

/**
 * An installed app follows the server's Content Security Policy, not the one of install time: the operator names a
 * new node and restarts, and the policy of the app's next opens allows it. The shell never waits on the network for
 * it: it opens at once with the headers the server sent last, and asks for them again behind. Offline, or with a
 * server that never answers, the installed shell still opens at once.
 */
let server: AppServer;
let browser: TestBrowser;

/** A loopback origin nothing listens on: the browser's policy check comes before any connection. */
const unusedOrigin = (): Promise<string> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(`http://127.0.0.1:${port}`));
    });
  });

beforeAll(async () => {
  server = await serveApp();
  browser = await launchBrowser({ shell: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The origins this page's policy refused, once a request to `control` (never allowed) has been refused too. */
async function refusedAmong(page: Page, origins: readonly string[], control: string): Promise<string[]> {
  return page.evaluate(
    async ({ origins, control }) => {
      const refused: string[] = [];
      const heard = new Promise<void>((resolve) =>
        document.addEventListener('securitypolicyviolation', (event) => {
          refused.push(new URL(event.blockedURI).origin);
          if (new URL(event.blockedURI).origin === control) resolve();
        }),
      );
      for (const origin of [...origins, control]) await fetch(`${origin}/extended`).catch(() => undefined);
      await heard;
      return refused.filter((origin) => origin !== control);
    },
    { origins, control },
  );
}

/** The server's headers the service worker saw last: what the next open of the shell gets. */
const seenPolicy = (page: Page): Promise<string | null> =>
  page.evaluate(async () => {
    const kept = await caches.match('/__server-headers', { cacheName: 'stacks-watch:server-headers' });
    return kept?.headers.get('content-security-policy') ?? null;
  });

describe('the Content Security Policy of an installed app', () => {
  it('is the server’s after a restart with a new node, and the app opens at once offline or with the server silent', async () => {
    const [newNode, neverAllowed] = [await unusedOrigin(), await unusedOrigin()];
    const page = await browser.context.newPage();
    await page.goto(server.url);
    await waitForServiceWorkerControl(page);
    const installed = await page.reload();
    expect(installed?.fromServiceWorker()).toBe(true);
    expect(installed?.headers()['content-security-policy']).not.toContain(newNode);
    expect(await refusedAmong(page, [newNode], neverAllowed)).toEqual([newNode]);

    // The operator names a new node (as --testnet-node or STACKS_WATCH_CONNECT_SRC would) and restarts.
    const port = Number(new URL(server.url).port);
    await server.close();
    server = await serveApp({ port, runtimeConfig: { devnet: { url: newNode } } });
    // This open has the headers seen last, at once; the server's of now are fetched behind it, for the next.
    const first = await page.reload();
    expect(first?.fromServiceWorker()).toBe(true);
    expect(first?.headers()['content-security-policy']).not.toContain(newNode);
    await expect.poll(() => seenPolicy(page)).toContain(newNode);
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    expect(reloaded?.headers()['content-security-policy']).toContain(`connect-src 'self'`);
    expect(reloaded?.headers()['content-security-policy']).toContain(newNode);
    expect(await refusedAmong(page, [newNode], neverAllowed)).toEqual([]);

    // Offline (the server out of reach too: Chromium's offline emulation does not reach the worker's own requests).
    await server.close();
    await browser.context.setOffline(true);
    try {
      const offline = await page.reload();
      expect(offline?.fromServiceWorker()).toBe(true);
      await page.getByRole('link', { name: 'Stacks Watch' }).waitFor();
    } finally {
      await browser.context.setOffline(false);
    }

    // A server that takes the connection and never answers: the shell opens while its answer is still awaited, with
    // the headers seen last.
    const held: Socket[] = [];
    let closed = 0;
    const silent = createServer((socket) => {
      held.push(socket);
      socket.on('close', () => (closed += 1));
    });
    await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
    try {
      const slow = await page.reload();
      expect(slow?.fromServiceWorker()).toBe(true);
      expect(slow?.headers()['content-security-policy']).toContain(newNode);
      await page.getByRole('link', { name: 'Stacks Watch' }).waitFor();
      await expect.poll(() => held.length).toBeGreaterThan(0);
      expect(closed).toBe(0);
    } finally {
      held.forEach((socket) => socket.destroy());
      await new Promise((resolve) => silent.close(resolve));
      server = await serveApp({ port });
    }
  });
});
