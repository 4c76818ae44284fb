import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { principalsOf, type TxEntry } from '../../mocks/devnet/chain.ts';
import { SeededRandom } from '../../mocks/devnet/random.ts';
import { mswServer, rig, serveDevnetThroughMsw } from './harness.ts';
import { Traffic } from './truth/traffic.ts';

serveDevnetThroughMsw();

const STRANGERS = 30;
const SEEDS = Number(process.env['RESUME_SEEDS'] ?? 12);
const FIRST = Number(process.env['RESUME_SEED'] ?? 1);

let resumesThatScanned = 0;

const strangers = (seed: number) =>
  Array.from({ length: STRANGERS }, (_, n) => c32address(26, (seed * 1000 + n).toString(16).padStart(40, '0')));

/**
 * A resume after the app was closed: the chain moved on (mixed traffic, some of it to watched addresses only through
 * a contract's events, sometimes a re-org), and the monitor opens again. The devnet's ledger says what every
 * snapshot must hold; the requests say that only the addresses the chain touched were read one by one.
 */
describe('resuming reads only what the chain touched since the last complete reconcile', () => {
  for (let seed = FIRST; seed < FIRST + SEEDS; seed++) {
    it(`seed ${seed}: every snapshot equals the ledger, untouched addresses cost nothing`, async () => {
      const random = new SeededRandom(`resume-${seed}`);
      const harness = rig();
      const { devnet, book, control } = harness;
      const { people, vault, treasury } = devnet.chain.accounts;
      const watched = [people[0]!.address, people[1]!.address, vault.address, treasury.address, ...strangers(seed)];
      const first = harness.monitor;
      first.start(watched);
      await Promise.all(watched.map((principal) => harness.until(principal, (s) => s.syncedAt !== null)));
      await first.reconcile();
      first.stop();

      const closedAtHeight = devnet.chain.tip.height;
      const traffic = new Traffic(devnet.chain, random);
      const rounds = random.int(1, 6);
      for (let round = 0; round < rounds; round++) {
        for (let n = random.int(0, 12); n > 0; n--) await traffic.act();
        if (random.chance(0.3)) {
          const recipient = random.pick(strangers(seed));
          await control('/devnet/transfer', { sender: people[3]!.address, recipient, amount: '5000' });
        }
        // A token sent to a stranger names it only in the transfer's events.
        if (random.chance(0.5)) {
          const recipient = random.pick(strangers(seed));
          const token = random.pick(devnet.chain.assets.tokens);
          await control('/devnet/ft-transfer', {
            sender: people[2]!.address,
            recipient,
            asset: token.symbol,
            amount: '1',
          });
        }
        await control('/devnet/mine', { count: random.int(1, 3) });
      }
      if (random.chance(0.25)) await control('/devnet/reorg', { depth: random.int(1, 3) });

      const mined: TxEntry[] = devnet.chain
        .minedNewestFirst()
        .filter((entry) => entry.state.kind === 'confirmed' && entry.state.block.height > closedAtHeight);
      const touched = new Set(mined.flatMap((entry) => principalsOf(entry)));
      const asked = new Set<string>();
      let principalRequests = 0;
      mswServer().events.on('response:mocked', ({ request }) => {
        const path = decodeURIComponent(new URL(request.url).pathname);
        const named = watched.find((principal) => path.includes(`/${principal}/`) || path.endsWith(`/${principal}`));
        if (!named) return;
        asked.add(named);
        principalRequests += 1;
      });
      const openedAt = Date.now();
      const second = harness.reopen();
      second.start(watched);
      await Promise.all(watched.map((principal) => harness.until(principal, (s) => (s.syncedAt ?? 0) >= openedAt)));
      await second.reconcile();
      await second.settled();
      mswServer().events.removeAllListeners();

      const context = `seed ${seed} (repeat with RESUME_SEED=${seed} RESUME_SEEDS=1); ${mined.length} mined while closed`;
      for (const principal of watched) {
        const snapshot = book.get(principal)!;
        const ledger = devnet.chain.state.stx.get(principal);
        expect(snapshot.stx?.total ?? 0n, `${context}: balance of ${principal}`).toBe(ledger?.balance ?? 0n);
        const history = devnet.chain.transactionsOf(principal).map((entry) => entry.signed.txId);
        const recent = snapshot.recent.map((activity) => activity.txId);
        expect(recent, `${context}: history of ${principal}`).toEqual(history.slice(0, recent.length));
        expect(recent.length, `${context}: history of ${principal}`).toBeGreaterThanOrEqual(
          Math.min(20, history.length),
        );
      }
      const untouched = watched.filter((principal) => !touched.has(principal));
      // A re-org over the anchor, or a list dearer than per-address reads, reads everything: never less than that.
      const scanned = untouched.every((principal) => !asked.has(principal));
      expect(
        scanned || untouched.every((principal) => asked.has(principal)),
        `${context}: either only touched addresses were read, or all of them`,
      ).toBe(true);
      if (scanned) {
        resumesThatScanned += 1;
        expect(principalRequests, context).toBeLessThan(watched.length);
      }
    });
  }

  it('most of those resumes read the list of mined transactions rather than every address', () => {
    expect(resumesThatScanned).toBeGreaterThanOrEqual(Math.ceil(SEEDS / 2));
  });

  it('a transaction learned live after the last reconcile, then re-orged away while closed, leaves the history', async () => {
    const harness = rig();
    const { devnet, control, book } = harness;
    const watched = strangers(98);
    const [lucky] = watched;
    await control('/devnet/mine', { count: 2 });
    harness.monitor.start(watched);
    await Promise.all(watched.map((principal) => harness.until(principal, (s) => s.syncedAt !== null)));
    await harness.monitor.reconcile();
    const sender = devnet.chain.accounts.people[0]!.address;
    const { tx_id } = await control('/devnet/transfer', { sender, recipient: lucky, amount: '777' });
    await control('/devnet/mine', {});
    await harness.until(lucky!, (s) => s.recent.some((activity) => activity.txId === tx_id));
    harness.monitor.stop();
    // The block that held it is orphaned; the one the last reconcile ended at stays.
    await control('/devnet/reorg', { depth: 1 });
    const second = harness.reopen();
    second.start(watched);
    await second.reconcile();
    await harness.until(lucky!, (s) => !s.recent.some((activity) => activity.txId === tx_id));
    expect(book.get(lucky!)!.stx?.total ?? 0n).toBe(devnet.chain.state.stx.get(lucky!)?.balance ?? 0n);
  });

  it('a re-org below the remembered block reads every address again', async () => {
    const harness = rig();
    const { devnet, control } = harness;
    const watched = strangers(99);
    await control('/devnet/mine', { count: 3 });
    harness.monitor.start(watched);
    await Promise.all(watched.map((principal) => harness.until(principal, (s) => s.syncedAt !== null)));
    await harness.monitor.reconcile();
    harness.monitor.stop();
    const anchored = devnet.chain.tip;
    expect(await control('/devnet/reorg', { depth: 1 })).toMatchObject({ orphaned: [anchored.hash] });
    await control('/devnet/mine', { count: 2 });
    const asked = new Set<string>();
    mswServer().events.on('response:mocked', ({ request }) => {
      const path = new URL(request.url).pathname;
      const named = watched.find((principal) => path.includes(principal));
      if (named) asked.add(named);
    });
    const second = harness.reopen();
    second.start(watched);
    await second.reconcile();
    mswServer().events.removeAllListeners();
    expect(asked.size).toBe(watched.length);
  });
});
