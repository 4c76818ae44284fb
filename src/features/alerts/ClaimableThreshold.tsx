import { useId, useState } from 'react';
import { parseMinimum, type AlertRules, type MinimumAsset } from '../../domain/alerts/alert-rules.ts';
import { plainUnits } from '../../domain/amount.ts';
import { SBTC_CLAIMABLE_MINIMUM } from '../../domain/alerts/staking-news.ts';
import { SBTC_DECIMALS } from '../../domain/state/staking.ts';

/** sBTC: never more than the 21 million bitcoin it is backed by. */
const SBTC_MINIMUM: MinimumAsset = { symbol: 'sBTC', decimals: SBTC_DECIMALS, mostEver: 21_000_000n };

/**
 * How much sBTC must be claimable before the app says so: rewards accrue every cycle, and a message each time
 * would be noise. Empty is any amount (told once per claim round).
 */
export function ClaimableThreshold({ rules, save }: { rules: AlertRules; save: (next: AlertRules) => void }) {
  const id = useId();
  const stored = rules.minimums[SBTC_CLAIMABLE_MINIMUM];
  const [value, setValue] = useState(() => (stored ? plainUnits(stored, SBTC_DECIMALS) : ''));
  const [problem, setProblem] = useState<string | null>(null);
  const commit = () => {
    const parsed = parseMinimum(value, SBTC_MINIMUM);
    if (!parsed.ok) return setProblem(parsed.error);
    setProblem(null);
    const minimums = { ...rules.minimums };
    if (parsed.value > 0n) minimums[SBTC_CLAIMABLE_MINIMUM] = parsed.value;
    else delete minimums[SBTC_CLAIMABLE_MINIMUM];
    save({ ...rules, minimums });
  };
  return (
    <>
      <label htmlFor={id}>Tell me when claimable staking rewards reach</label>
      <div className="inline-field">
        <input
          id={id}
          inputMode="decimal"
          placeholder="any amount"
          value={value}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(event) => setValue(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit();
          }}
        />{' '}
        sBTC
      </div>
      {problem && (
        <p id={`${id}-error`} role="alert" className="error">
          {problem}
        </p>
      )}
    </>
  );
}
