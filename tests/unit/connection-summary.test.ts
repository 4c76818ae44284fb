import { describe, expect, it } from 'vitest';
import {
  connectionWord,
  headerWords,
  panelWords,
  summariseConnections,
  type ConnectionWord,
} from '../../src/app/connection-summary.ts';
import type { MonitorStatus } from '../../src/monitor/monitor-status.ts';

const NOW = 1_000_000;
const status = (change: Partial<MonitorStatus>): MonitorStatus => ({
  node: 'node.example',
  feed: 'connecting',
  connectedOnce: false,
  lastEventAt: null,
  tip: null,
  syncing: false,
  problem: null,
  ...change,
});
const CANT_REACH = 'Can’t reach node.example: no network, the name does not resolve, or the connection was refused.';

describe('a network’s connection, in the user’s words', () => {
  it('says "reconnecting" only after a connection once lived', () => {
    const cases: [Partial<MonitorStatus>, ConnectionWord][] = [
      [{}, 'connecting'],
      // Attempts fail, the node never answered: not reached, however the feed names its next attempt.
      [{ feed: 'reconnecting', problem: CANT_REACH }, 'unreachable'],
      [{ feed: 'connecting', problem: CANT_REACH }, 'unreachable'],
      // The live feed is refused (WebSockets blocked) but REST answers: still trying for live updates.
      [{ feed: 'reconnecting' }, 'connecting'],
      [{ feed: 'live', connectedOnce: true }, 'live'],
      [{ feed: 'reconnecting', connectedOnce: true }, 'reconnecting'],
      [{ feed: 'reconnecting', connectedOnce: true, problem: CANT_REACH }, 'reconnecting'],
      [{ feed: 'offline', connectedOnce: true }, 'offline'],
    ];
    for (const [change, word] of cases) expect(connectionWord(status(change)), JSON.stringify(change)).toBe(word);
  });

  it('tells a node never reached, and when it is tried again, beside the dot', () => {
    const summary = summariseConnections(
      { testnet: status({ feed: 'reconnecting', problem: CANT_REACH, retryAt: NOW + 14_000 }) },
      true,
    )!;
    expect(summary.feed).toBe('unreachable');
    expect(headerWords(summary, NOW)).toBe('Can’t reach node, next try in 14\u00a0s');
    expect(headerWords({ ...summary, retryAt: null }, NOW)).toBe('Can’t reach node');
    const lost = summariseConnections(
      { testnet: status({ feed: 'reconnecting', connectedOnce: true, syncing: true, problem: CANT_REACH }) },
      true,
    )!;
    expect(headerWords(lost, NOW)).toBe('Reconnecting, syncing, with a problem');
    // Lost after it lived, and its last try failed: when it is tried again, as for a node never reached.
    expect(headerWords({ ...lost, retryAt: NOW + 12_000 }, NOW)).toBe('Reconnecting, next try in 12\u00a0s');
    // Something the node sent set aside besides: not hidden behind the countdown.
    const setAside = summariseConnections(
      {
        testnet: status({
          feed: 'reconnecting',
          connectedOnce: true,
          problem: CANT_REACH,
          retryAt: NOW + 12_000,
          setAside: 'a balance below zero',
        }),
      },
      true,
    )!;
    expect(headerWords(setAside, NOW)).toBe('Reconnecting, with a problem');
  });

  it('lets the worst network speak for all, with its own next try; a device offline is offline', () => {
    const statuses = {
      mainnet: status({ feed: 'reconnecting', problem: CANT_REACH, retryAt: NOW + 120_000 }),
      testnet: status({ feed: 'reconnecting', connectedOnce: true, retryAt: NOW + 5_000 }),
    };
    const summary = summariseConnections(statuses, true)!;
    expect(summary.networks.map(({ network, word }) => [network, word])).toEqual([
      ['mainnet', 'unreachable'],
      ['testnet', 'reconnecting'],
    ]);
    // Two networks in different states: each is named, the worst last with its next try.
    expect(headerWords(summary, NOW)).toBe('Testnet reconnecting · Mainnet unreachable, next try in 2\u00a0min');
    const testnetLive = summariseConnections({ ...statuses, testnet: status({ feed: 'live' }) }, true)!;
    expect(headerWords(testnetLive, NOW)).toBe('Testnet live · Mainnet unreachable, next try in 2\u00a0min');
    expect(summariseConnections(statuses, false)!.feed).toBe('offline');
    const both = summariseConnections({ ...statuses, testnet: statuses.mainnet }, true)!;
    expect(headerWords(both, NOW)).toBe('Can’t reach either node, next try in 2\u00a0min');
    expect(summariseConnections({}, true)).toBeNull();
  });

  it('offline, says each network is offline and nothing else: no attempt, sync, problem or next try', () => {
    const statuses = {
      mainnet: status({ feed: 'connecting', syncing: true, problem: CANT_REACH, retryAt: NOW + 30_000 }),
      testnet: status({ feed: 'connecting' }),
    };
    const summary = summariseConnections(statuses, false)!;
    expect(summary.networks.map(({ network, word }) => [network, word])).toEqual([
      ['mainnet', 'offline'],
      ['testnet', 'offline'],
    ]);
    expect(headerWords(summary, NOW)).toBe('Offline');
    expect(summary.networks.map(panelWords)).toEqual(['offline', 'offline']);
  });

  it('in the panel, a node never reached is unreachable, tried again but never "syncing"', () => {
    const trying = summariseConnections({ mainnet: status({ syncing: true, problem: CANT_REACH }) }, true)!;
    expect(trying.networks.map(panelWords)).toEqual(['unreachable, trying again…']);
    const waiting = summariseConnections({ mainnet: status({ problem: CANT_REACH, retryAt: NOW + 9_000 }) }, true)!;
    expect(waiting.networks.map(panelWords)).toEqual(['unreachable']);
    const lost = summariseConnections(
      { testnet: status({ feed: 'reconnecting', connectedOnce: true, syncing: true }) },
      true,
    )!;
    expect(lost.networks.map(panelWords)).toEqual(['reconnecting, syncing']);
  });
});
