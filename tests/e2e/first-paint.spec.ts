import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIRST_PAINT_JS_BUDGET_KB, measureBundle } from '../../bench/bundle-size.ts';

/*
 * What the built page fetches before its first paint (the entry and its modulepreloads, read from dist/index.html as
 * the browser reads it) against issue 24's budget, and the words it must leave to later chunks. Each phrase below is
 * checked to be in the build at all, so that rewording it cannot make this pass without looking.
 */
const dist = new URL('../../dist/', import.meta.url);
const bundle = measureBundle(dist);
const firstPaintJs = bundle.files
  .filter(({ file }) => file.endsWith('.js'))
  .map(({ file }) => readFileSync(new URL(`.${file}`, dist), 'utf8'))
  .join('\n');
const everyJs = readdirSync(new URL('assets/', dist))
  .filter((file) => file.endsWith('.js'))
  .map((file) => readFileSync(new URL(`assets/${file}`, dist), 'utf8'))
  .join('\n');

const LATER_WORDS = {
  // domain/text/alert-text.ts: loaded with the engine, or with the toast once an alert arrives.
  'alert words': 'Possible address-poisoning: ',
  // domain/text/staking-text.ts, through the alert words.
  'staking words': 'Unstake scheduled: ',
  // domain/address/address-messages.ts: the add form's and the address page's errors, not the rows'.
  'address errors': 'The contract name after the dot is missing. ',
};

describe('the first paint', () => {
  it(`fetches at most ${FIRST_PAINT_JS_BUDGET_KB} kB of JS (gzip)`, () => {
    expect(bundle.firstPaintJsGzip / 1000).toBeLessThanOrEqual(FIRST_PAINT_JS_BUDGET_KB);
  });

  it.each(Object.entries(LATER_WORDS))('leaves the %s to a later chunk', (_what, phrase) => {
    expect(everyJs.includes(phrase), `"${phrase}" is nowhere in the build: update this test's phrase`).toBe(true);
    expect(firstPaintJs.includes(phrase), `"${phrase}" is in a script fetched before the first paint`).toBe(false);
  });
});
