import { describe, expect, it } from 'vitest';
import { NodeError } from '../../src/chain/rest-client.ts';
import { PayloadError, quantity } from '../../src/chain/payload.ts';
import { nextTryWords, readFailureWords, setAsideWords, troubleWords } from '../../src/domain/text/node-trouble.ts';

const HOST = 'api.mainnet.hiro.so';

describe('what went wrong with a node, in words', () => {
  it('says what the browser lets it tell apart, never "Failed to fetch"', () => {
    const cases: [unknown, RegExp][] = [
      [new TypeError('Failed to fetch'), /^Can’t reach api\.mainnet\.hiro\.so: no network, the name does not resolve/],
      [new TypeError('fetch failed'), /^Can’t reach api\.mainnet\.hiro\.so/],
      [new Error('timeout'), /did not answer in time/],
      [new DOMException('The operation was aborted.', 'AbortError'), /did not answer in time/],
      [new NodeError('Node answered 503 for /extended', 503), /is having trouble: it answered 503\./],
      [new NodeError('Node answered 429 for /extended', 429), /asks the app to slow down \(429/],
      [new NodeError('Node answered 401 for /extended', 401), /check the API key in Settings/],
      [new NodeError('Node answered 404 for /extended', 404), /answered 404: is it a Stacks Blockchain API node\?/],
      [new PayloadError('tx.fee_rate', 'an integer string', 12), /sent something the app cannot read/],
    ];
    for (const [error, words] of cases) {
      const text = troubleWords(error, HOST);
      expect(text).toMatch(words);
      expect(text).not.toMatch(/Failed to fetch|fetch failed/);
    }
  });

  it('offline, says the device is offline and blames no node; online, says what troubleWords says, without its stop', () => {
    const failed = new TypeError('Failed to fetch');
    expect(readFailureWords(failed, 'Local devnet', false)).toBe('This device is offline');
    expect(readFailureWords(new Error('timeout'), 'Local devnet', false)).toBe('This device is offline');
    const online = readFailureWords(failed, 'Local devnet', true);
    expect(online).toMatch(/^Can’t reach Local devnet: no network/);
    expect(online).not.toMatch(/Failed to fetch|\.$/);
    // An answer came from somewhere (a proxy, the cache's own host): it is told as it is.
    expect(readFailureWords(new NodeError('Node answered 503 for /extended', 503), 'Local devnet', false)).toBe(
      'Local devnet is having trouble: it answered 503',
    );
  });

  it('says when the next try is', () => {
    expect(nextTryWords(41_000, 1000)).toBe('next try in 40\u00a0s');
    expect(nextTryWords(181_000, 1000)).toBe('next try in 3\u00a0min');
    expect(nextTryWords(1000, 1000)).toBe('trying again now');
  });
});

describe('a negative amount from a node, in words', () => {
  const negative = (() => {
    try {
      quantity({ value: '-5000', path: '$.balance' });
    } catch (error) {
      return error;
    }
  })();

  it('is named as negative, set aside or kept from before, never as a cryptic parse error', () => {
    expect(negative).toBeInstanceOf(PayloadError);
    expect(setAsideWords('balance for ST3TBR…J7X4', negative, 'Testnet node')).toBe(
      'Testnet node sent a negative balance for ST3TBR…J7X4 ($.balance: expected an amount of at least 0, got "-5000"): set aside, the last one read stands.',
    );
    expect(troubleWords(negative, 'Testnet node')).toBe(
      'Testnet node sent a negative amount ($.balance: expected an amount of at least 0, got "-5000"): the app keeps what it read before.',
    );
    expect(setAsideWords('mempool event', new PayloadError('$.tx_id', 'text', 5), 'Testnet node')).toBe(
      'Testnet node sent a mempool event the app cannot read ($.tx_id: expected text, got number): set aside, the last one read stands.',
    );
  });
});
