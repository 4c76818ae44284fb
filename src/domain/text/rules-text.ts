import type { AlertRules } from '../alerts/alert-rules.ts';
import { formatStx, formatUnits, STX_ASSET } from '../amount.ts';
import { SBTC_CLAIMABLE_MINIMUM } from '../alerts/staking-news.ts';
import { SBTC_DECIMALS } from '../state/staking.ts';

const list = (words: readonly string[]): string =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

/**
 * An address's alert rules in one line, for the closed "what to tell" disclosure: "Received and sent · STX, tokens
 * and NFTs · staking, rewards from 0.05 sBTC · also while pending · under 5.00 STX ignored".
 */
export function describeRules(rules: AlertRules): string {
  if (rules.muted) return 'Off: nothing is told about this address';
  const directions =
    rules.incoming && rules.outgoing
      ? 'Received and sent'
      : rules.incoming
        ? 'Received only'
        : rules.outgoing
          ? 'Sent only'
          : 'Neither received nor sent';
  const assets = [rules.stx && 'STX', rules.tokens && 'tokens', rules.nfts && 'NFTs'].filter(
    (word): word is string => typeof word === 'string',
  );
  const minimum = rules.minimums[STX_ASSET];
  const rewards = rules.minimums[SBTC_CLAIMABLE_MINIMUM];
  return [
    directions,
    assets.length > 0 ? list(assets) : 'no STX, tokens or NFTs',
    rules.stacking ? (rewards ? `staking, rewards from ${formatUnits(rewards, SBTC_DECIMALS)} sBTC` : 'staking') : null,
    rules.pending ? 'also while pending' : null,
    minimum ? `under ${formatStx(minimum)} ignored` : null,
  ]
    .filter((part) => part !== null)
    .join(' · ');
}
