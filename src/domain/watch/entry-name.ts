import type { WatchEntry } from './watch-entry.ts';

/**
 * What the user calls a watched address: its label, else the BNS name it was added by, else one learned for it since
 * (`learned`, from the name book), else null (it is then shown by its short address). Every screen names an address
 * so, and so does the Undo of one just taken off the list.
 */
export const knownName = (
  entry: Pick<WatchEntry, 'label' | 'name'> | undefined,
  learned: string | null | undefined,
): string | null => entry?.label || entry?.name || learned || null;
