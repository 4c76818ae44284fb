import { describe, expect, it } from 'vitest';
import type { StakingReader } from '../../src/chain/staking-reader.ts';
import type { StakingPosition } from '../../src/domain/state/staking.ts';
import { StakingKeeper } from '../../src/monitor/staking-keeper.ts';
import type { Database } from '../../src/relay/storage/sql.ts';
import { SqlSnapshots } from '../../src/relay/storage/sql-snapshots.ts';
import { stakingPosition } from '../support/staking-position.ts';

const STAKER = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const ON_POX5 = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const UNSTAKED = 'ST2JHG361ZXG51QTKY2NQCVBPPRRE2KZB1HR05NNC';
const position = (staked: bigint) => stakingPosition({ staked, locked: staked });
/** Snapshots are written behind the changes; these tests look only at what the book keeps in memory. */
const noDatabase = { query: async () => [] } as unknown as Database;

describe("the relay's burn-block rereads (issue 38: per block, not per principal followed)", () => {
  it('reads again only the principals that stake among thousands followed, and each once per burn height', async () => {
    const book = new SqlSnapshots(noDatabase);
    const followed = new Set([STAKER, ON_POX5, UNSTAKED]);
    for (let index = 0; index < 5000; index++) followed.add(`ST${String(index).padStart(39, '0')}`);
    for (const principal of followed) book.update(principal, 'testnet', (snapshot) => snapshot);
    book.update(STAKER, 'testnet', (snapshot) => ({ ...snapshot, staking: position(5_000_000n) }));
    book.update(ON_POX5, 'testnet', (snapshot) => ({
      ...snapshot,
      stx: { total: 9n, available: 0n, locked: 9n, lockBurnHeight: 100, unlockBurnHeight: 200, poxVersion: 5 },
    }));
    book.update(UNSTAKED, 'testnet', (snapshot) => ({ ...snapshot, staking: position(1n) }));
    book.update(UNSTAKED, 'testnet', (snapshot) => ({ ...snapshot, staking: position(0n) }));
    expect(new Set(book.staking())).toEqual(new Set([STAKER, ON_POX5]));

    const asked: string[] = [];
    const reader = {
      position: async (principal: string) => {
        asked.push(principal);
        return book.get(principal)?.staking ?? null;
      },
    } as unknown as StakingReader;
    const keeper = new StakingKeeper({ network: 'testnet', reader, book, changed: () => {} });
    // What a block costs: the snapshots looked at, which must not grow with the principals followed.
    let looked = 0;
    const get = book.get.bind(book);
    book.get = (principal) => (looked++, get(principal));
    keeper.burnBlock(followed, 120);
    keeper.burnBlock(followed, 120);
    expect(looked).toBeLessThanOrEqual(4);
    await expect.poll(() => asked.length).toBe(2);
    expect(new Set(asked)).toEqual(new Set([STAKER, ON_POX5]));

    // One no longer followed is not read, though its snapshot still says it stakes; a new burn height reads the rest.
    keeper.burnBlock(new Set([...followed].filter((principal) => principal !== ON_POX5)), 121);
    await expect.poll(() => asked.length).toBe(3);
    expect(asked[2]).toBe(STAKER);
    await book.forget([STAKER]);
    expect([...book.staking()]).toEqual([ON_POX5]);
  });

  it('reads one not yet known to stake again after a burn block that came while its first read was under way', async () => {
    const book = new SqlSnapshots(noDatabase);
    book.update(UNSTAKED, 'testnet', (snapshot) => snapshot);
    const answers: ((position: StakingPosition | null) => void)[] = [];
    const reader = {
      position: () => new Promise<StakingPosition | null>((resolve) => answers.push(resolve)),
    } as unknown as StakingReader;
    const keeper = new StakingKeeper({ network: 'testnet', reader, book, changed: () => {} });
    const first = keeper.refresh(UNSTAKED, 120);
    await expect.poll(() => answers.length).toBe(1);
    // The block's height is newer than what the read under way may have seen: one more read follows it.
    keeper.burnBlock(new Set([UNSTAKED]), 121);
    answers[0]!(null);
    await first;
    await expect.poll(() => answers.length).toBe(2);
    answers[1]!(null);
  });
});
