import { describe, expect, it } from 'vitest';
import {
  addToBurst,
  burstSince,
  inboxSincePath,
  sinceOfSearch,
  viewBurst,
} from '../../src/domain/alerts/toast-view.ts';
import { summaryText, type NotificationContent } from '../../src/domain/text/notification-content.ts';

const one = (tag: string, title: string, path: string): NotificationContent => ({
  title,
  body: 'body',
  tag,
  renotify: false,
  data: { ids: [tag], path, summary: null },
});

/** A summary of `count` transactions of Bob's, worded as the tray words it (summaryText). */
function summary(count: number): NotificationContent {
  const ids = Array.from({ length: count }, (_, n) => `testnet:ST2:0x${n.toString(16).padStart(4, '0')}`);
  const lines = ids.map((id, n) => ({ id, phase: 'confirmed' as const, title: `Received ${n + 1}.00 STX` }));
  const data = { ids, path: '/address/ST2', summary: { subject: 'Bob', away: false, lines } };
  return { ...summaryText(ids, data.summary, false), tag: 'summary:ST2', renotify: false, data };
}

describe('a toast shows one count', () => {
  it('folds a summary’s “and N more” into its “+N more”', () => {
    const told = summary(16);
    // The summary's own words, as the tray shows them: three lines and the others counted.
    expect(told.body.split('\n')).toEqual([
      'Received 1.00 STX',
      'Received 2.00 STX',
      'Received 3.00 STX',
      'and 13 more',
    ]);
    let burst = null;
    for (let n = 0; n < 6; n++) burst = addToBurst(burst, one(`t${n}`, `Sent ${n}.00 STX`, `/address/ST1#tx-${n}`));
    burst = addToBurst(burst, told);
    const view = viewBurst(burst);
    expect(view.title).toBe('16 new transactions on Bob');
    expect(view.body).toBe('Received 1.00 STX\nReceived 2.00 STX\nReceived 3.00 STX');
    expect(view.body).not.toMatch(/more/);
    // The six before it and the thirteen its lines leave out.
    expect(view.more).toBe(19);
  });

  it('leaves a summary that lists all it tells as it is', () => {
    const view = viewBurst(addToBurst(null, summary(3)));
    expect(view.body.split('\n')).toHaveLength(3);
    expect(view.more).toBe(0);
  });
});

describe('“+N more” opens the burst, not the whole inbox', () => {
  const burst = addToBurst(
    addToBurst(null, one('testnet:ST1:0x01', 'Sent 1.00 STX', '/address/ST1#tx-1')),
    one('testnet:ST2:0x02', 'Received 2.00 STX', '/address/ST2#tx-2'),
  );

  it('marks the inbox where the burst began: its oldest alert’s time as the inbox stored it', () => {
    const entries = [
      { id: 'testnet:ST9:0x09', at: 500 },
      { id: 'testnet:ST1:0x01', at: 1_000 },
      { id: 'testnet:ST2:0x02', at: 1_400 },
    ];
    expect(burstSince(burst, entries)).toBe(1_000);
    expect(viewBurst(burst, 1_000).morePath).toBe('/inbox?since=1000');
    expect(sinceOfSearch(new URL(inboxSincePath(1_000), 'http://app').search)).toBe(1_000);
  });

  it('opens the plain inbox while the inbox holds none of them, and one address’s page when it is all one’s', () => {
    expect(burstSince(burst, [])).toBeNull();
    expect(viewBurst(burst, null).morePath).toBe('/inbox');
    const alone = addToBurst(
      addToBurst(null, one('a', 'Sent 1.00 STX', '/address/ST1#tx-1')),
      one('b', 'Sent 2.00 STX', '/address/ST1#tx-2'),
    );
    expect(viewBurst(alone, 1_000).morePath).toBe('/address/ST1');
  });

  it('reads no time from a search that names none', () => {
    for (const search of ['', '?since=', '?since=soon', '?since=-5', '?since=1e9', '?since=1234567890123456'])
      expect(sinceOfSearch(search)).toBeNull();
  });
});
