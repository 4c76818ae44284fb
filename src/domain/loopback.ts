/**
 * Whether a URL's hostname names this machine: `localhost` and the names under it (RFC 6761 reserves them for
 * loopback, and browsers resolve them there), all of 127.0.0.0/8, `::1`, and loopback written as an IPv4-mapped IPv6
 * address (`::ffff:127.0.0.2`, which the URL parser writes `::ffff:7f00:2`). IPv6 with or without the brackets a
 * URL keeps around it; addresses as the URL parser writes them. Only this machine: a private network is not loopback.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const name = host.replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (host === '::1') return true;
  const ipv4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (ipv4) return ipv4[1] === '127' && ipv4.slice(2).every((octet) => Number(octet) <= 255);
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}
