import type { DevnetChain, TxEntry } from '../../../mocks/devnet/chain.ts';
import type { SeededRandom } from '../../../mocks/devnet/random.ts';
import type { Intent } from '../../../mocks/devnet/transactions.ts';

/** Mixed traffic: STX, FT and NFT transfers, contract calls, sponsored transactions, to demo and made-up accounts. */
export async function traffic(
  chain: DevnetChain,
  random: SeededRandom,
  strangers: readonly string[],
  submittedEntry: (entry: TxEntry) => void = () => {},
): Promise<string[]> {
  const people = chain.accounts.people.map((person) => person.address);
  const token = chain.assets.tokens[0]!;
  const submitted: string[] = [];
  for (let n = random.int(1, 5); n > 0; n--) {
    const sender = random.pick(people);
    const recipient = random.chance(0.5) ? random.pick(strangers) : random.pick(people.filter((p) => p !== sender));
    const kind = random.int(0, 4);
    let intent: Intent;
    if (kind === 0) intent = { kind: 'stx', recipient, amount: BigInt(random.int(1, 5000)), memo: '' };
    else if (kind === 1) intent = { kind: 'ft', token, recipient, amount: BigInt(random.int(1, 50)), memo: '' };
    else if (kind === 2) {
      const owned = [...chain.state.nftOwners].find(
        ([key, owner]) => owner === sender && key.startsWith(chain.assets.nft.assetIdentifier),
      );
      if (!owned) continue;
      intent = { kind: 'nft', collection: chain.assets.nft, recipient, id: BigInt(owned[0].split('#')[1]!) };
    } else if (kind === 3) {
      const vault = chain.accounts.vault.address;
      intent = random.chance(0.5)
        ? { kind: 'vault-deposit', vault, amount: BigInt(random.int(1, 1000)) }
        : { kind: 'vault-withdraw', vault, amount: BigInt(random.int(1, 1000)) };
    } else intent = { kind: 'stx', recipient, amount: BigInt(random.int(1, 5000)), memo: 'sponsored' };
    const sponsor = kind === 4 || random.chance(0.15) ? random.pick(people.filter((p) => p !== sender)) : undefined;
    const entry = await chain.submit(sender, intent, 300n, sponsor ? { sponsor } : {});
    submitted.push(entry.signed.txId);
    submittedEntry(entry);
  }
  return submitted;
}
