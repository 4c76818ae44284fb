/** The first screen's line icons as path data (the others are in icons-extra.ts, loaded with their screens). */
export const BELL_ICON = 'M6 8a6 6 0 1 1 12 0c0 7 3 8 3 8H3s3-1 3-8M10.3 20a2 2 0 0 0 3.4 0';
/** Settings as sliders: a cog's outline costs ten times the bytes. */
export const SETTINGS_ICON = 'M4 21v-7M4 10V3M12 21v-9M12 8V3M20 21v-5M20 12V3M1 14h6M9 8h6M17 16h6';
export const PLUS_ICON = 'M12 5v14M5 12h14';
export const MORE_ICON = 'M5 12h.01M12 12h.01M19 12h.01';
