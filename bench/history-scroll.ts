import { startDevnet } from '../mocks/devnet/server.ts';
import { serveApp } from '../scripts/serve-app.ts';
import { launchBrowser } from '../tests/e2e/support/chromium.ts';

export interface HistoryScrollFigures {
  readonly rows: number;
  readonly viewport: string;
  /** Frames drawn while the page scrolled by `pixelsPerFrame` each frame, from the top and from the middle. */
  readonly frames: number;
  readonly pixelsPerFrame: number;
  /** The longest time between two frames while scrolling: a frame longer than about 17 ms is a visible stutter. */
  readonly longestFrameMs: number;
  readonly p95FrameMs: number;
  /** Rows in the document at the end (the list draws only those near the screen). */
  readonly rowsInDocument: number;
}

const PIXELS_PER_FRAME = 120;

/**
 * A string, not a function: the TypeScript loader would add helpers that do not exist in the page. Writes `count`
 * mined transactions of `principal` into the device's history store as the app keeps them (a chunk of 20 a page,
 * then the progress naming them, the whole history read): what a user who scrolled or exported them before has.
 */
const seedScript = (principal: string, count: number) => `new Promise((resolve, reject) => {
  const open = indexedDB.open('stacks-watch:history');
  open.onupgradeneeded = () => open.result.createObjectStore('chunks');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const tx = db.transaction('chunks', 'readwrite');
    const store = tx.objectStore('chunks');
    const me = ${JSON.stringify(principal)};
    const other = 'ST2JHG361ZXG51QTKY2NQCVBPPRRE2KZB1HR05NNC';
    const gold = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM.watch-gold::gold';
    const chunks = [];
    for (let chunk = 0; chunk * 20 < ${count}; chunk++) {
      const items = [];
      for (let i = 0; i < 20 && chunk * 20 + i < ${count}; i++) {
        const n = chunk * 20 + i;
        const height = 1000000 - n;
        const token = n % 5 === 4;
        const sent = n % 2 === 1;
        const amount = BigInt(1000000 + n);
        items.push({
          txId: '0x' + n.toString(16).padStart(64, '0'),
          status: n % 97 === 0 ? 'failed' : 'success',
          kind: token ? 'contract_call' : 'token_transfer',
          counterparty: other,
          stxNet: sent ? -amount - 300n : token ? 0n : amount,
          fee: 300n,
          memo: n % 3 === 0 ? 'memo ' + n : null,
          contractCall: token ? { contractId: gold.split('::')[0], functionName: 'transfer' } : null,
          blockHeight: height,
          txIndex: 0,
          time: 1790000000 - n * 60,
          sender: sent ? me : other,
          movements: n % 97 === 0 ? [] : [{
            type: token ? 'ft' : 'stx',
            assetIdentifier: token ? gold : 'STX',
            kind: 'transfer',
            sender: sent ? me : other,
            recipient: sent ? other : me,
            amount,
          }],
          assets: [],
        });
      }
      store.put({ version: 1, items }, 'testnet:' + me + '#' + chunk);
      chunks.push(chunk);
    }
    store.put({ version: 1, progress: { network: 'testnet', principal: me, chunks, nextChunk: chunks.length,
      cursor: null, started: true, complete: true, kept: ${count}, nodeTotal: ${count}, readAt: Date.now() } },
      'testnet:' + me);
    tx.oncomplete = () => { db.close(); resolve(chunks.length); };
    tx.onerror = () => reject(tx.error);
  };
})`;

/** Scrolls the page by a fixed step every frame for `frames` frames and gives back the time between frames. */
const scrollScript = (frames: number, step: number) => `new Promise((resolve) => {
  const gaps = [];
  let last = null;
  let left = ${frames};
  const tick = (now) => {
    if (last !== null) gaps.push(now - last);
    last = now;
    if (left-- === 0) return resolve(gaps);
    scrollBy(0, ${step});
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`;

/**
 * The address page's full history of `rows` transactions (10,000 in the full bench) at 390 px in Chromium: the built
 * app, the devnet as its node, the history already on the device. Scrolls it `framesPerRun` frames from its top, then
 * as many from its middle.
 */
export async function measureHistoryScroll(rows: number, framesPerRun: number): Promise<HistoryScrollFigures> {
  const devnet = await startDevnet({ port: 0, blockMs: null });
  const server = await serveApp({ runtimeConfig: { devnet: { url: devnet.url } } });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await page.locator('.connection-live').waitFor({ timeout: 30_000 });
    const alice = devnet.node.chain.accounts.people[0]!.address;
    await page.evaluate(seedScript(alice, rows));
    await page.locator('.watch-row').filter({ hasText: 'Alice' }).first().getByRole('link').click();
    await page.getByRole('button', { name: 'Full history: every transaction, filters, amounts' }).click();
    const section = page.getByRole('region', { name: 'Full history' });
    await section.getByText(new RegExp(`^(\\d+) of \\1 transactions shown$`)).waitFor({ timeout: 60_000 });
    const shown = Number((await section.locator('p.note').first().textContent())!.split(' ')[0]);
    if (shown < rows) throw new Error(`the full history shows ${shown} transactions, not the ${rows} kept`);
    await section.evaluate((element) => element.scrollIntoView());
    const gaps = (await page.evaluate(scrollScript(framesPerRun, PIXELS_PER_FRAME))) as number[];
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight / 2));
    gaps.push(...((await page.evaluate(scrollScript(framesPerRun, PIXELS_PER_FRAME))) as number[]));
    const sorted = [...gaps].sort((a, b) => a - b);
    return {
      rows: shown,
      viewport: '390x844',
      frames: gaps.length,
      pixelsPerFrame: PIXELS_PER_FRAME,
      longestFrameMs: Math.round(sorted.at(-1)! * 10) / 10,
      p95FrameMs: Math.round(sorted[Math.floor(sorted.length * 0.95)]! * 10) / 10,
      rowsInDocument: await section.locator('.history-list > li').count(),
    };
  } finally {
    await browser.close();
    await server.close();
    await devnet.close();
  }
}
