/**
 * 10,000 mutated node answers through the REST and feed decoders: every one is either decoded into values that make
 * sense (no negative balance or fee, ids and parties of the right shape, no runaway text) or refused with a
 * PayloadError naming the path — never another exception. FUZZ_SEED=<n> repeats a run; a failure prints it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PayloadError } from '../../../src/chain/payload.ts';
import { mutate, parse, random } from './mutate.ts';
import { devnetSources, recordedSources, type Source } from './sources.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 1313);
const CASES = 10_000;

const TX_ID = /^0x[0-9a-f]{64}$/;
const PRINCIPAL = /^S[0-9A-Z]{27,40}(\.[a-zA-Z][a-zA-Z0-9_-]{0,127})?$/;
const MAX_TEXT = 1000;

/** What a decoded value may hold, wherever it sits: checked by key name, the same for every decoder. */
function checkValue(value: unknown, key: string, problems: string[]): void {
  if (typeof value === 'bigint') {
    if (value < 0n && !['stxNet', 'net', 'available'].includes(key)) problems.push(`${key} is negative: ${value}`);
  } else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) problems.push(`${key} is not a count: ${value}`);
  } else if (typeof value === 'string') {
    if (value.length > MAX_TEXT) problems.push(`${key} is ${value.length} characters long`);
    if (key === 'txId' && !TX_ID.test(value)) problems.push(`txId ${JSON.stringify(value.slice(0, 80))}`);
    if (['sender', 'recipient', 'counterparty'].includes(key) && !PRINCIPAL.test(value))
      problems.push(`${key} ${JSON.stringify(value.slice(0, 80))} is not a principal`);
  } else if (value instanceof Map) {
    for (const [mapKey, item] of value) {
      checkValue(mapKey, 'key', problems);
      checkValue(item, key, problems);
    }
  } else if (Array.isArray(value)) value.forEach((item) => checkValue(item, key, problems));
  else if (value && typeof value === 'object')
    for (const [name, item] of Object.entries(value)) checkValue(item, name, problems);
}

describe(`the decoders against ${CASES.toLocaleString('en')} mutated answers (seed ${SEED})`, () => {
  let sources: Source[] = [];
  beforeAll(async () => {
    sources = [...recordedSources(), ...(await devnetSources())];
  });

  it('every original answer decodes, so the mutations start from something the app accepts', () => {
    for (const source of sources) expect(() => source.decode(source.value), source.name).not.toThrow();
  });

  it('decode into sane values or refuse with a PayloadError; nothing else', () => {
    const rng = random(SEED);
    const tally = { accepted: 0, refused: 0, unparsable: 0 };
    const failures: string[] = [];
    for (let index = 0; index < CASES && failures.length < 5; index++) {
      const source = sources[index % sources.length]!;
      const mutant = mutate(source.value, rng);
      const parsed = parse(mutant.body);
      if (!parsed.ok) {
        tally.unparsable++;
        continue;
      }
      const where = `case ${index} (seed ${SEED}): ${source.name}, ${mutant.name}`;
      try {
        const problems: string[] = [];
        checkValue(source.decode(parsed.value), '$', problems);
        if (problems.length > 0) failures.push(`${where}: accepted ${problems.slice(0, 3).join('; ')}`);
        tally.accepted++;
      } catch (error) {
        if (!(error instanceof PayloadError)) failures.push(`${where}: threw ${String(error).slice(0, 200)}`);
        else if (error.message.length > 400) failures.push(`${where}: a ${error.message.length}-character refusal`);
        tally.refused++;
      }
    }
    expect(failures, `FUZZ_SEED=${SEED}`).toEqual([]);
    // Each outcome happened often enough for the suite to mean something.
    expect(tally.accepted + tally.refused + tally.unparsable).toBe(CASES);
    expect(tally.refused).toBeGreaterThan(CASES / 4);
    expect(tally.accepted).toBeGreaterThan(CASES / 20);
    expect(tally.unparsable).toBeGreaterThan(CASES / 20);
  });
});
