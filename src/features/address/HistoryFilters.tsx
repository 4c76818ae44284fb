import { HISTORY_FILTERS, type HistoryFilter } from '../../domain/history/history-view.ts';

const LABELS: Record<HistoryFilter, string> = {
  all: 'All',
  stx: 'STX',
  tokens: 'Tokens',
  nfts: 'NFTs',
  staking: 'Staking',
  failed: 'Failed',
  pending: 'Pending',
};

/** The full history's filters as chips: one pressed at a time, a radio group to assistive technology. */
export function HistoryFilters({ value, onChange }: { value: HistoryFilter; onChange: (next: HistoryFilter) => void }) {
  return (
    <div className="history-filters" role="radiogroup" aria-label="Show">
      {HISTORY_FILTERS.map((filter) => (
        <button
          key={filter}
          type="button"
          role="radio"
          aria-checked={value === filter}
          className={value === filter ? 'chip chip-on' : 'chip'}
          onClick={() => onChange(filter)}
        >
          {LABELS[filter]}
        </button>
      ))}
    </div>
  );
}
