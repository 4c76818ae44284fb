import { describe, expect, it } from 'vitest';
import { clientKey } from '../../src/relay/api/client-key.ts';

describe('the bucket a client is counted in', () => {
  it('is the /64 for IPv6, whatever the spelling, and the address for IPv4 (mapped or not)', () => {
    expect(clientKey('2001:db8:0:0:1::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('2001:DB8::7')).toBe('2001:db8:0:0::/64');
    expect(clientKey('2001:db8:aa:bb:cc:dd:ee:ff')).toBe('2001:db8:aa:bb::/64');
    expect(clientKey('2001:db8:aa:bc::1')).not.toBe(clientKey('2001:db8:aa:bb::1'));
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('::ffff:198.51.100.4')).toBe('198.51.100.4');
    expect(clientKey('198.51.100.4')).toBe('198.51.100.4');
    expect(clientKey('unknown')).toBe('unknown');
  });
});
