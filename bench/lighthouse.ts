import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { findChromium, LOOPBACK_ONLY_FLAG } from '../tests/e2e/support/chromium.ts';

export interface LighthouseFigures {
  readonly performance: number;
  readonly accessibility: number;
  readonly bestPractices: number;
  readonly firstContentfulPaintMs: number;
  readonly largestContentfulPaintMs: number;
  readonly totalBlockingTimeMs: number;
  readonly cumulativeLayoutShift: number;
}

/** Lighthouse's default (mobile, simulated throttling) run against the app as `npm start` serves it. */
export async function runLighthouse(url: string): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({
    chromePath: findChromium(),
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // As in the browser tests: the page reaches only this machine (the app's default nodes are public hosts).
      LOOPBACK_ONLY_FLAG,
    ],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    if (!result) throw new Error('Lighthouse returned no result');
    const { categories, audits } = result.lhr;
    const ms = (id: string) => Math.round(audits[id]?.numericValue ?? Number.NaN);
    return {
      performance: categories['performance']?.score ?? Number.NaN,
      accessibility: categories['accessibility']?.score ?? Number.NaN,
      bestPractices: categories['best-practices']?.score ?? Number.NaN,
      firstContentfulPaintMs: ms('first-contentful-paint'),
      largestContentfulPaintMs: ms('largest-contentful-paint'),
      totalBlockingTimeMs: ms('total-blocking-time'),
      cumulativeLayoutShift: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    };
  } finally {
    chrome.kill();
  }
}
