import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, readRules } from '../../src/domain/alerts/alert-rules.ts';
import { isRecord } from '../../src/domain/is-record.ts';
import { readHostRecord } from '../../src/domain/privacy/disclosure-record.ts';
import { isResumeAnchor } from '../../src/domain/state/resume-anchor.ts';
import { readStoredPrincipal } from '../../src/domain/address/address-shape.ts';
import { readWatchEntry } from '../../src/domain/watch/watch-entry.ts';
import { readRuntimeConfig } from '../../src/chain/runtime-config.ts';
import { readAlertSettings } from '../../src/store/settings-schema.ts';

describe('what counts as a record read from outside', () => {
  it.each([{}, { version: 1 }, Object.create(null)])('an object is one: %j', (value) => {
    expect(isRecord(value)).toBe(true);
  });

  it.each([null, undefined, [], [{ version: 1 }], 'text', 1, true, 10n])('anything else is not: %s', (value) => {
    expect(isRecord(value)).toBe(false);
  });
});

describe('readers of stored, served and imported records take no array for a record', () => {
  it('stored alert rules: minimums kept as a list are none, and the settings say the rules did not read whole', () => {
    expect(readRules({ muted: true, minimums: [5n] })).toEqual({ ...DEFAULT_RULES, muted: true, minimums: {} });
    expect(readRules([true])).toEqual(DEFAULT_RULES);
    const settings = readAlertSettings({
      version: 1,
      whileOpen: 'toast',
      rules: { 'testnet:ST1': { minimums: [5n] } },
    });
    expect(settings.damage).toMatch(/the rules of .* could not be read/);
    expect(readAlertSettings({ version: 1, whileOpen: 'toast', rules: [] }).damage).toMatch(/not listed by address/);
  });

  it('the served runtime config: a list of nodes is refused, saying what it should be', () => {
    const read = readRuntimeConfig({ nodes: [] });
    expect(read.ok ? null : read.error).toMatch(/“nodes” must be an object/);
    expect(readRuntimeConfig({ devnet: [], relay: null }).ok).toBe(false);
  });

  it('the privacy record: addresses kept as a list are none', () => {
    const sighting = { first: 1, last: 2, count: 1 };
    expect(
      readHostRecord({ origin: 'https://node.example', contact: sighting, addresses: [sighting] })?.addresses,
    ).toEqual({});
    expect(readHostRecord({ origin: 'https://node.example', contact: [sighting] })).toBeNull();
  });

  it('a watch entry or a resume anchor given as a list is not one', () => {
    expect(readWatchEntry([], 0, readStoredPrincipal).ok).toBe(false);
    expect(isResumeAnchor(Object.assign([], { height: 1, indexHash: `0x${'a'.repeat(64)}` }))).toBe(false);
  });
});
