import { isIP } from 'node:net';

/**
 * The bucket limits and caps count a client in. One IPv6 subscriber is usually handed a whole /64 and can take a
 * fresh address from it for every request, so an IPv6 client is its /64; an IPv4 client (also written
 * `::ffff:1.2.3.4`) is its address. Anything else (a proxy that wrote no address) stays as written.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const groups = expand(address).slice(0, 4);
  return `${groups.map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, each four hex digits; the URL parser first writes any valid spelling
 * (upper case, embedded IPv4, zone) in its one canonical form. */
function expand(address: string): string[] {
  const text = new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => group.padStart(4, '0'));
}
