import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/domain/loopback.ts';

const hostOf = (url: string) => new URL(url).hostname;

describe('which hosts are this machine', () => {
  it.each([
    ['localhost', true],
    ['LOCALHOST', true],
    ['localhost.', true],
    ['relay.localhost', true],
    ['127.0.0.1', true],
    ['127.0.0.2', true],
    ['127.255.255.254', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['[::ffff:7f00:2]', true],
    ['localhost.example.com', false],
    ['notlocalhost', false],
    ['128.0.0.1', false],
    ['10.0.0.1', false],
    ['192.168.1.10', false],
    ['0.0.0.0', false],
    ['127.0.0.256', false],
    ['::', false],
    ['[::2]', false],
    ['::ffff:10.0.0.1', false],
    ['[::ffff:a00:1]', false],
    ['fe80::1', false],
    ['example.com', false],
  ])('%s: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it('reads hostnames as a URL gives them, whatever form the address was typed in', () => {
    expect(isLoopbackHost(hostOf('http://127.1:3999'))).toBe(true);
    expect(isLoopbackHost(hostOf('http://[0:0:0:0:0:0:0:1]:3999'))).toBe(true);
    expect(isLoopbackHost(hostOf('http://[::ffff:127.0.0.2]:3999'))).toBe(true);
    expect(isLoopbackHost(hostOf('http://[::ffff:192.168.0.1]:3999'))).toBe(false);
  });
});
