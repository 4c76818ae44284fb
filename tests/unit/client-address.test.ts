import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress, readTrustedProxies, viaTrustedProxy } from '../../src/relay/api/client-address.ts';

const request = (peer: string, forwardedFor?: string | string[]) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as unknown as IncomingMessage;

describe('the client address limits key on', () => {
  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress(request('203.0.113.5', '198.51.100.1'), null)).toBe('203.0.113.5');
    expect(clientAddress(request('::ffff:203.0.113.5'), null)).toBe('203.0.113.5');
  });

  it('is the peer when the peer is not one of the trusted proxies', () => {
    const proxies = readTrustedProxies('10.0.0.0/8');
    expect(clientAddress(request('203.0.113.5', '198.51.100.1'), proxies)).toBe('203.0.113.5');
    expect(viaTrustedProxy(request('203.0.113.5'), proxies)).toBe(false);
  });

  it('is the right-most untrusted hop behind trusted proxies (CIDR, IPv6, loopback, mapped IPv4)', () => {
    const proxies = readTrustedProxies('10.0.0.0/8, fd00::/8 loopback');
    expect(clientAddress(request('::ffff:10.1.2.3', '192.0.2.1, 198.51.100.9, 10.9.9.9'), proxies)).toBe(
      '198.51.100.9',
    );
    expect(clientAddress(request('fd00::1', '2001:db8::7'), proxies)).toBe('2001:db8::7');
    expect(clientAddress(request('::1', ['192.0.2.1', '198.51.100.2']), proxies)).toBe('198.51.100.2');
    // Only proxies in the header: the left-most, the first hop the chain reports.
    expect(clientAddress(request('127.0.0.1', '10.0.0.2, 10.0.0.3'), proxies)).toBe('10.0.0.2');
    // A proxy that sent no header: the proxy itself.
    expect(clientAddress(request('127.0.0.1'), proxies)).toBe('127.0.0.1');
    // Garbage where an address should be stops the walk there, so nothing further left is believed.
    expect(clientAddress(request('127.0.0.1', '198.51.100.1, unknown'), proxies)).toBe('unknown');
  });

  it('refuses a proxy that is not an address, a range or "loopback", saying what is expected', () => {
    expect(() => readTrustedProxies('proxy.local')).toThrow(
      '--trust-proxy: "proxy.local" is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or "loopback"',
    );
    expect(() => readTrustedProxies('10.0.0.0/33')).toThrow(/"10.0.0.0\/33" is not/);
    expect(readTrustedProxies('')).toBeNull();
  });
});
