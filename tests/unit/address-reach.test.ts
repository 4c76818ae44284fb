import { describe, expect, it } from 'vitest';
import { addressReach } from '../../src/relay/api/address-reach.ts';
import { refuseEndpoint } from '../../src/relay/api/push-endpoint.ts';
import { reachOf } from '../../src/server/published-nodes.ts';

const hostOf = (url: string) => new URL(url).hostname;

describe('where an IP address can be reached from', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.0.0.2', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.2', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['169.254.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['::', 'private'],
    ['fd00::1', 'private'],
    ['[fe80::1]', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
  ])('%s: %s', (host, reach) => {
    expect(addressReach(host)).toBe(reach);
  });

  it('is judged on the address a URL carries, in whatever form it was typed', () => {
    expect(addressReach(hostOf('https://[::ffff:10.1.2.3]/'))).toBe('private');
    expect(addressReach(hostOf('https://[::ffff:127.0.0.2]/'))).toBe('loopback');
    expect(addressReach(hostOf('https://[0:0:0:0:0:0:0:0]/'))).toBe('private');
    expect(addressReach(hostOf('https://0x7f.1/'))).toBe('loopback');
  });

  it('leaves names to their callers', () => {
    expect(addressReach('localhost')).toBeNull();
    expect(addressReach('fcm.googleapis.com')).toBeNull();
  });

  it("is the push endpoint check's and the published nodes' one judge", () => {
    expect(refuseEndpoint('https://[::ffff:10.1.2.3]/push', [])).toMatch(/private, loopback or link-local/);
    expect(refuseEndpoint('https://[::ffff:7f00:1]/push', [])).toMatch(/private, loopback or link-local/);
    expect(refuseEndpoint('https://8.8.8.8/push', [])).toMatch(/is an IP address/);
    expect(reachOf(hostOf('http://[::]:3999'))).toBe('private');
    expect(reachOf(hostOf('http://[::ffff:192.168.0.2]:3999'))).toBe('private');
    expect(reachOf('localhost')).toBe('loopback');
    expect(reachOf('node')).toBe('private');
  });
});
