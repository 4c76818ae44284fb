/** Line icons of the screens and panels loaded on demand: kept apart so that the first paint does not carry them. */
export const CLOSE_ICON = 'M18 6 6 18M6 6l12 12';
export const SEARCH_ICON = 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14ZM21 21l-4.3-4.3';
export const SCAN_ICON =
  'M3 7V5a2 2 0 0 1 2-2h2M17 3h2a2 2 0 0 1 2 2v2M21 17v2a2 2 0 0 1-2 2h-2M7 21H5a2 2 0 0 1-2-2v-2M7 12h10';
export const TRASH_ICON = 'M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6';
