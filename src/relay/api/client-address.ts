import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/**
 * The proxies whose `X-Forwarded-For` is believed (`--trust-proxy`). Without one, the client is the socket's peer
 * and the header is ignored: anyone can write it. "loopback" names 127.0.0.0/8 and ::1 (a proxy on the same host).
 */
export function readTrustedProxies(text: string | undefined): BlockList | null {
  const entries = (text ?? '')
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    if (entry === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [address = '', bits] = entry.split('/');
    const family = isIP(address);
    const prefix = bits === undefined ? null : Number(bits);
    const maxBits = family === 6 ? 128 : 32;
    if (family === 0 || (prefix !== null && (!Number.isInteger(prefix) || prefix < 0 || prefix > maxBits)))
      throw new Error(
        `--trust-proxy: "${entry}" is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or "loopback"`,
      );
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === null) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  return list;
}

/** An IPv4 peer on a dual-stack socket reads `::ffff:1.2.3.4`; rules and buckets use the plain form. */
const plain = (address: string): string => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/** Some proxies (Azure's, IIS) write a hop as `1.2.3.4:5678` or `[2001:db8::1]:443`: the port is no part of it. */
const withoutPort = (hop: string): string =>
  /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(hop)?.[1] ?? /^\[([^\]]+)\](?::\d+)?$/.exec(hop)?.[1] ?? hop;

const trusts = (proxies: BlockList, address: string): boolean => {
  const family = isIP(address);
  return family !== 0 && proxies.check(address, family === 6 ? 'ipv6' : 'ipv4');
};

/**
 * The address limits key on. Behind trusted proxies, `X-Forwarded-For` is read from the right (each proxy appends
 * the peer it saw): the right-most entry that is not a trusted proxy is the client; what a client wrote further
 * left is never reached, so it cannot pick its own bucket.
 */
export function clientAddress(request: IncomingMessage, proxies: BlockList | null): string {
  const peer = plain(request.socket.remoteAddress ?? 'unknown');
  if (!proxies || !trusts(proxies, peer)) return peer;
  const header = request.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((hop) => plain(withoutPort(hop.trim())))
    .filter(Boolean);
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index]!;
    // A hop that is not an address is where the chain stops being trustworthy: key on it rather than look past it.
    if (isIP(hop) === 0 || !trusts(proxies, hop)) return hop;
  }
  return hops[0] ?? peer;
}

/** The request came through one of the trusted proxies, so its X-Forwarded-* headers are the proxy's words. */
export const viaTrustedProxy = (request: IncomingMessage, proxies: BlockList | null): boolean =>
  proxies !== null && trusts(proxies, plain(request.socket.remoteAddress ?? ''));
