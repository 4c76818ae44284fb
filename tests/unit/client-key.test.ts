import { describe, expect, it } from 'vitest';
import { NewDevicesPerClient } from '../../src/relay/api/caps.ts';
import { clientKey } from '../../src/relay/api/client-key.ts';

const HOUR_MS = 3_600_000;

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

describe('new devices per client', () => {
  it('forgets clients whose hour ran out without a scan waiting for a size threshold', () => {
    const perClient = new NewDevicesPerClient(2);
    for (let client = 0; client < 500; client++) expect(perClient.take(`198.51.100.${client}`, 1000)).toBeNull();
    expect(perClient.size).toBe(500);
    expect(perClient.take('203.0.113.1', 2 * HOUR_MS + 1000)).toBeNull();
    expect(perClient.size).toBe(1);
  });

  it('still counts a client whose slots are inside the sliding hour across a clock hour', () => {
    const perClient = new NewDevicesPerClient(2);
    expect(perClient.take('a', HOUR_MS - 10)).toBeNull();
    expect(perClient.take('a', HOUR_MS + 10)).toBeNull();
    expect(perClient.take('a', 2 * HOUR_MS - 20)?.code).toBe('too_many_new_devices');
    expect(perClient.take('a', 2 * HOUR_MS + 5)).toBeNull();
  });
});
