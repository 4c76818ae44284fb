import { KeptPartsStore } from '../store/kept-parts-store.ts';

/**
 * The codes of a list from another device read so far (localStorage, read only when a transfer screen asks): one
 * store for the page, made here with the other state the screens read, never by a screen.
 */
export const keptParts = new KeptPartsStore();
