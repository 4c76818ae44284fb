/**
 * `npm run bench`: figures that `npm test` never asserts. Builds first (see package.json), serves dist/ with
 * `vite preview`, measures, and writes bench/report/latest.json plus a readable summary on stdout.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { serveApp } from '../scripts/serve-app.ts';
import { measureBundle } from './bundle-size.ts';
import { measureDevnetLoad } from './devnet-load.ts';
import { measureLargeWatchlist } from './large-watchlist.ts';
import { runLighthouse } from './lighthouse.ts';

const TARGETS = { firstPaintJsGzipKb: 95, lighthousePerformance: 0.98 };

const server = await serveApp();
try {
  const bundle = measureBundle(new URL('../dist/', import.meta.url));
  const lighthouse = await runLighthouse(server.url);
  const largeList = await measureLargeWatchlist(server.url, 1000);
  const devnetLoad = await measureDevnetLoad();
  const report = { date: new Date().toISOString(), targets: TARGETS, bundle, lighthouse, largeList, devnetLoad };

  const out = new URL('./report/', import.meta.url);
  mkdirSync(out, { recursive: true });
  writeFileSync(new URL('latest.json', out), `${JSON.stringify(report, null, 2)}\n`);

  const kb = (bytes: number) => (bytes / 1000).toFixed(1);
  console.log(
    `JS before first paint (gzip): ${kb(bundle.firstPaintJsGzip)} kB (target ≤ ${TARGETS.firstPaintJsGzipKb} kB); CSS ${kb(bundle.firstPaintCssGzip)} kB`,
  );
  console.log(
    `Lighthouse mobile: performance ${lighthouse.performance} (target ≥ ${TARGETS.lighthousePerformance}), accessibility ${lighthouse.accessibility}, best practices ${lighthouse.bestPractices}`,
  );
  console.log(
    `  FCP ${lighthouse.firstContentfulPaintMs} ms, LCP ${lighthouse.largestContentfulPaintMs} ms, TBT ${lighthouse.totalBlockingTimeMs} ms`,
  );
  console.log(
    `1,000 addresses: reload to full list ${largeList.reloadToListMs} ms; add ${largeList.addMedianMs} ms, move ${largeList.moveMedianMs} ms (median click to paint)`,
  );
  const load = devnetLoad;
  console.log(
    `Devnet, ${load.subscribedAddresses} subscribed addresses: ${load.achievedTxPerSecond} tx/s sustained for ${load.seconds} s (target ${load.targetTxPerSecond}); ` +
      `submit p50 ${load.submitLatencyMs.p50} ms / p95 ${load.submitLatencyMs.p95} ms; block → address event p50 ${load.deliveryLagMs.p50} ms / p95 ${load.deliveryLagMs.p95} ms; ` +
      `${load.delivered}/${load.submitted} delivered, ${load.duplicates} duplicates, ${load.missing} missing; devnet CPU ${load.devnetCpuPercent}% of a core, RSS ${load.devnetRssMb} MB`,
  );
  console.log('Report: bench/report/latest.json');
} finally {
  await server.close();
}
