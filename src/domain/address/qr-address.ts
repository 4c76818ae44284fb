import { compactAddressInput } from './address-input.ts';

/**
 * The address inside a scanned QR code: wallets encode either the bare address or a payment URI
 * (`stacks:SP…?amount=…`, sometimes `web+stacks:` or `stx:`); the query and any `//` are not part of it.
 */
export function addressFromQr(text: string): string {
  const compact = compactAddressInput(text);
  const uri = /^(?:web\+stacks|stacks|stx):(?:\/\/)?([^?#]*)/i.exec(compact);
  return uri?.[1] ?? compact;
}
