/**
 * What a user pasted, ready for the address parser: wallets show addresses in groups of four, copies pick up line
 * breaks, non-breaking and zero-width spaces. None of them can be part of an address or a BNS name, so every one
 * goes, wherever it is.
 */
const INVISIBLE_OR_SPACE = /[\s\u200B-\u200D\u2060\uFEFF]+/g;

export const compactAddressInput = (text: string): string => text.replace(INVISIBLE_OR_SPACE, '');
