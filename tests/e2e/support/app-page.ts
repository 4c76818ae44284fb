import type { Page } from 'playwright-core';

/**
 * Resolves once the app's service worker controls the page (it claims clients on first install). Failing, it says
 * how far the page's registration got (none, installing, waiting, active), which the timeout alone does not.
 */
export async function waitForServiceWorkerControl(page: Page): Promise<string> {
  try {
    const handle = await page.waitForFunction(() => navigator.serviceWorker.controller?.scriptURL ?? false);
    return (await handle.jsonValue()) as string;
  } catch (error) {
    const registration = await page
      .evaluate(async () => {
        const found = await navigator.serviceWorker.getRegistration();
        if (!found) return 'none';
        const { installing, waiting, active } = found;
        return JSON.stringify({
          installing: installing?.state ?? null,
          waiting: waiting?.state ?? null,
          active: active?.state ?? null,
        });
      })
      .catch((reason: unknown) => `not readable (${String(reason)})`);
    throw new Error(`${String(error)}\nThe page’s service worker registration: ${registration}`, { cause: error });
  }
}

/** Runs axe-core in the page and returns its violations, reduced to what a failure message needs. */
export async function axeViolations(page: Page, axeSource: string): Promise<{ id: string; nodes: string[] }[]> {
  // Evaluated through the DevTools protocol: the app's CSP and Trusted Types (rightly) refuse an injected script tag.
  // Once a document: parsing axe's half a megabyte again at every check cost more than some checks.
  if (await page.evaluate(() => !('axe' in window))) await page.evaluate(`${axeSource}\n;undefined`);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: { resultTypes: string[] },
          ) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    // Violations are all a check reads: axe then keeps one node of each rule that passes, not every one.
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations.map((violation) => ({
      id: violation.id,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
}

/** From the first paint on, every text the header's connection words take, in order. */
export async function recordHeaderWords(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { headerWords: string[] }).headerWords = seen;
    new MutationObserver(() => {
      const words = document.querySelector('.connection-word')?.textContent;
      if (words && words !== seen.at(-1)) seen.push(words);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { headerWords: string[] }).headerWords);
}

/**
 * Records every state the browser reports for the page's service worker versions (installing, installed, activating,
 * activated, redundant, and whether each runs), with the time, for a failure message: a navigation that never loads
 * under a worker is explained by where its versions stood.
 */
export async function recordServiceWorkerStates(page: Page): Promise<() => string[]> {
  const cdp = await page.context().newCDPSession(page);
  const started = Date.now();
  const seen: string[] = [];
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const version of versions) {
      seen.push(
        `+${Date.now() - started} ms version ${version.versionId}: ${version.status}, ${version.runningStatus}, ` +
          `${version.controlledClients?.length ?? 0} clients`,
      );
    }
  });
  await cdp.send('ServiceWorker.enable');
  return () => seen.slice(-30);
}
