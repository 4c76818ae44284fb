import './list-filters.css';
import { useId } from 'react';
import { NETWORK_LABEL, NETWORKS, type Network } from '../../domain/network.ts';
import type { NetworkFilter } from '../../domain/watch/watch-filter.ts';
import { Icon } from '../../ui/Icon.tsx';
import { SEARCH_ICON } from '../../ui/icons-extra.ts';

export interface ListQuery {
  readonly text: string;
  readonly network: NetworkFilter;
}

/** Search by label, name, address or network, and a network choice when both are watched. */
export function ListFilters({
  query,
  onChange,
  networks,
  showSearch,
}: {
  query: ListQuery;
  onChange: (query: ListQuery) => void;
  networks: ReadonlySet<Network>;
  showSearch: boolean;
}) {
  const searchId = useId();
  return (
    <div className="list-filters" role="search">
      {showSearch && (
        <div className="search-field">
          <Icon path={SEARCH_ICON} size={18} />
          <label htmlFor={searchId} className="visually-hidden">
            Search the watch list
          </label>
          <input
            id={searchId}
            type="search"
            value={query.text}
            placeholder="Name, address or network"
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => onChange({ ...query, text: event.target.value })}
          />
        </div>
      )}
      {networks.size > 1 && (
        <fieldset className="segmented">
          <legend className="visually-hidden">Show</legend>
          {(['all', ...NETWORKS] as const).map((value) => (
            <label key={value} className={query.network === value ? 'selected' : undefined}>
              <input
                type="radio"
                name="network-filter"
                className="visually-hidden"
                checked={query.network === value}
                onChange={() => onChange({ ...query, network: value })}
              />
              {value === 'all' ? 'All' : NETWORK_LABEL[value]}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}
