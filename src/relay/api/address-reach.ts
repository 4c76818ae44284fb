import { BlockList, isIP } from 'node:net';
import { isLoopbackHost } from '../../domain/loopback.ts';

/** Where a host can be reached from: anywhere, this machine only, or its own network only. */
export type Reach = 'public' | 'loopback' | 'private';

/** Addresses only a machine's own network reaches (loopback is domain/loopback.ts's). */
const OWN_NETWORK = new BlockList();
for (const [address, bits] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
  ['0.0.0.0', 8],
] as const)
  OWN_NETWORK.addSubnet(address, bits, 'ipv4');
OWN_NETWORK.addSubnet('fc00::', 7, 'ipv6');
OWN_NETWORK.addSubnet('fe80::', 10, 'ipv6');
OWN_NETWORK.addAddress('::', 'ipv6');

/**
 * Where an IP address can be reached from, or null when `host` is not one (a name is judged by whoever knows what
 * names mean there). The host as a URL gives it, with or without the brackets around IPv6. Loopback is all of
 * 127.0.0.0/8 and ::1 (domain/loopback.ts, the one judge of it); private is RFC 1918, link-local (169.254.0.0/16,
 * fe80::/10), shared CGNAT space (100.64.0.0/10), unique local IPv6 (fc00::/7), "this network" (0.0.0.0/8) and the
 * unspecified `::`. An IPv4-mapped IPv6 address is judged as the IPv4 address it carries, in either notation
 * (`::ffff:10.0.0.1`, or `::ffff:a00:1` as the URL parser writes it).
 */
export function addressReach(host: string): Reach | null {
  const address = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const family = isIP(address);
  if (family === 0) return null;
  if (isLoopbackHost(address)) return 'loopback';
  return OWN_NETWORK.check(address, family === 6 ? 'ipv6' : 'ipv4') ? 'private' : 'public';
}
