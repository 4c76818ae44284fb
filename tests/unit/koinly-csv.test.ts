import { describe, expect, it } from 'vitest';
import { rangeOf, rangeProblem } from '../../src/domain/history/history.ts';
import { koinlyCsv } from '../../src/domain/history/koinly-csv.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { csvRecords } from '../support/csv-read.ts';

const ME = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const THEM = 'ST2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKQ9H6DPR';
const TOKEN = 'ST000000000000000000002AMW42H.gold::gold';
const NFT = 'ST000000000000000000002AMW42H.owls::owl';

const base: Activity = {
  txId: '0x01',
  status: 'success',
  kind: 'contract_call',
  counterparty: THEM,
  stxNet: 0n,
  fee: 0n,
  memo: null,
  contractCall: { contractId: 'ST000000000000000000002AMW42H.pool', functionName: 'swap' },
  blockHeight: 10,
  txIndex: 0,
  time: 1_764_000_000,
  sender: THEM,
  movements: [],
};

const exportOf = (activities: Activity[], range = { from: null, until: null }) =>
  csvRecords(
    koinlyCsv([{ address: { principal: ME, name: '=cmd|calc' }, activities }], range, (asset) =>
      asset === TOKEN ? { name: 'Gold', symbol: 'GOLD', decimals: 8 } : undefined,
    ),
  );

describe('the Koinly universal CSV', () => {
  it('writes a swap as two rows, the fee once, exact decimals from base units', () => {
    const rows = exportOf([
      {
        ...base,
        sender: ME,
        fee: 1_081n,
        // Sent 12.000001 STX and the fee; received 0.00000001 GOLD.
        stxNet: -12_000_001n - 1_081n,
        movements: [
          { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: ME, recipient: THEM, amount: 12_000_001n },
          { type: 'ft', assetIdentifier: TOKEN, kind: 'transfer', sender: THEM, recipient: ME, amount: 1n },
        ],
      },
    ]);
    expect(
      rows.map((row) => [
        row['Sent Amount'],
        row['Sent Currency'],
        row['Received Amount'],
        row['Received Currency'],
        row['Fee Amount'],
      ]),
    ).toEqual([
      ['12.000001', 'STX', '', '', '0.001081'],
      ['', '', '0.00000001', 'GOLD', ''],
    ]);
    expect(rows.map((row) => row['TxHash'])).toEqual(['0x01', '0x01']);
    expect(rows[0]!['Date']).toBe('2025-11-24 16:00:00 UTC');
  });

  it('writes a failed transaction the address paid for as its fee sent, labelled cost, and leaves out one it did not pay for', () => {
    const rows = exportOf([
      {
        ...base,
        txId: '0x02',
        status: 'failed',
        statusDetail: 'abort_by_response',
        sender: ME,
        fee: 300n,
        stxNet: -300n,
      },
      { ...base, txId: '0x03', status: 'failed', sender: THEM, fee: 300n },
    ]);
    expect(rows).toHaveLength(1);
    // Koinly's documented way with a fee paid on its own: a withdrawal of the fee, labelled "cost".
    expect(rows[0]).toMatchObject({
      'Sent Amount': '0.0003',
      'Sent Currency': 'STX',
      'Received Amount': '',
      'Fee Amount': '',
      'Fee Currency': '',
      Label: 'cost',
      TxHash: '0x02',
    });
    expect(rows[0]!['Description']).toBe(
      "'=cmd|calc: Failed — The contract refused it (its call returned an error): only the fee was paid.",
    );
  });

  it('says why a transaction failed in the words the screens use, never the node’s status codes', () => {
    const failed = (txId: string, statusDetail: string, fields: Partial<Activity> = {}): Activity => ({
      ...base,
      txId,
      status: 'failed',
      statusDetail,
      sender: ME,
      fee: 300n,
      stxNet: -300n,
      ...fields,
    });
    const rows = exportOf([
      failed('0x0a', 'abort_by_response', { attempt: { result: '(err u1)', args: [], postConditions: [] } }),
      failed('0x0b', 'abort_by_post_condition', { txIndex: 1 }),
      failed('0x0c', 'problematic_skipped', { txIndex: 2 }),
    ]);
    expect(rows.map((row) => row['Description'])).toEqual([
      "'=cmd|calc: Failed — The contract refused it: its call returned (err u1). Only the fee was paid.",
      "'=cmd|calc: Failed — A post-condition did not hold, so nothing moved: only the fee was paid.",
      "'=cmd|calc: Skipped — The miners skipped it as problematic.",
    ]);
    expect(rows.every((row) => !/abort_by|problematic_skipped/.test(row['Description']!))).toBe(true);
  });

  it('names an NFT by its id, and a token of unknown decimals in base units, saying so', () => {
    const rows = exportOf([
      {
        ...base,
        movements: [
          {
            type: 'nft',
            assetIdentifier: NFT,
            kind: 'transfer',
            sender: THEM,
            recipient: ME,
            amount: 1n,
            nftId: 'u12',
          },
          { type: 'ft', assetIdentifier: `${THEM}.odd::odd`, kind: 'mint', sender: null, recipient: ME, amount: 1234n },
        ],
      },
    ]);
    expect(rows.map((row) => [row['Received Amount'], row['Received Currency']])).toEqual([
      ['1', 'owl #12'],
      ['1234', `${THEM}.odd::odd`],
    ]);
    expect(rows[1]!['Description']).toContain('in base units (its decimals are unknown)');
  });

  it('labels sBTC a reward claim paid as a reward, in sBTC whatever the node knows, and names a stake by its purpose', () => {
    const SBTC = 'ST1F7QA2MDF17S807EPA36TSS8AMEFY4KA9TVGWXT.sbtc-token::sbtc-token';
    const rows = exportOf([
      {
        ...base,
        txId: '0x0c',
        sender: ME,
        fee: 2000n,
        stxNet: -2000n,
        contractCall: { contractId: `${THEM}.pox5-signer`, functionName: 'claim-rewards' },
        movements: [
          { type: 'ft', assetIdentifier: SBTC, kind: 'transfer', sender: THEM, recipient: ME, amount: 120_000n },
        ],
      },
      {
        ...base,
        txId: '0x0d',
        blockHeight: 11,
        sender: ME,
        fee: 3000n,
        stxNet: -3000n,
        contractCall: { contractId: 'ST000000000000000000002AMW42H.pox-5', functionName: 'stake' },
      },
    ]);
    expect(rows.map((row) => [row['Received Amount'], row['Received Currency'], row['Label'], row['TxHash']])).toEqual([
      ['0.0012', 'sBTC', 'reward', '0x0c'],
      ['', '', 'cost', '0x0d'],
    ]);
    expect(rows[0]!['Description']).toBe(`'=cmd|calc: Reward claim (pox5-signer.claim-rewards)`);
    expect(rows[1]!['Description']).toBe(`'=cmd|calc: Stake (pox-5.stake)`);
  });

  it('keeps text a spreadsheet would run as a formula inert, and quotes what needs it', () => {
    const rows = exportOf([
      { ...base, kind: 'token_transfer', contractCall: null, memo: '@SUM(1,2) "hi"', stxNet: 5n },
    ]);
    expect(rows[0]!['Description']).toBe(`'=cmd|calc: STX transfer · memo “@SUM(1,2) "hi"”`);
  });

  it('keeps the days of a range whole, in UTC, and leaves out pending and dropped transactions', () => {
    const day = (iso: string) => Date.parse(iso) / 1000;
    const at = (txId: string, iso: string, status: Activity['status'] = 'success'): Activity => ({
      ...base,
      txId,
      status,
      time: day(iso),
      stxNet: 1n,
    });
    const rows = exportOf(
      [
        at('0xa', '2026-02-28T23:59:59Z'),
        at('0xb', '2026-03-01T00:00:00Z'),
        at('0xc', '2026-03-02T23:59:59Z'),
        at('0xd', '2026-03-03T00:00:00Z'),
        at('0xe', '2026-03-02T12:00:00Z', 'pending'),
        at('0xf', '2026-03-02T12:00:00Z', 'dropped'),
      ],
      rangeOf({ from: '2026-03-01', to: '2026-03-02' }) as { from: null; until: null },
    );
    expect(rows.map((row) => row['TxHash'])).toEqual(['0xb', '0xc']);
  });

  it('says what is wrong with a date range', () => {
    expect(rangeProblem('2026-02-30', '')).toBe('The start date “2026-02-30” is not a date: use YYYY-MM-DD.');
    expect(rangeProblem('', 'soon')).toBe('The end date “soon” is not a date: use YYYY-MM-DD.');
    // Backwards: said in the user's own date words (the fields show those), never in the storage format.
    const backwards = rangeProblem('2026-03-02', '2026-03-01') ?? '';
    expect(backwards).toMatch(/^The start date \(.*2026.*\) is after the end date \(.*2026.*\): swap them\.$/);
    expect(backwards).not.toContain('2026-03');
    expect(rangeProblem('2026-03-02', '2026-03-01')).toContain('swap them');
    expect(rangeProblem('2026-03-01', '2026-03-01')).toBeNull();
  });
});
