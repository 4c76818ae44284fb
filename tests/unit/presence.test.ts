import { describe, expect, it } from 'vitest';
import { trackPresence, type LastSeen } from '../../src/app/presence.ts';

/** When the app was last seen, as localStorage keeps it across a reload: shared by every page of one world. */
function keeper(at: number | null = null): LastSeen & { at: number | null } {
  return {
    at,
    read() {
      return this.at;
    },
    write(time) {
      this.at = time;
    },
  };
}

/**
 * A page whose visibility the test sets, and a clock it moves (each page's 20 s tick runs as the clock passes it);
 * `open` loads the app again, in this tab after it (a reload) or in another beside it.
 */
function world(start: 'visible' | 'hidden' = 'visible', lastSeen = keeper()) {
  let time = 1_000_000;
  let ticks: { run: () => void; ms: number; next: number; page: object }[] = [];
  const pass = (ms: number) => {
    const until = time + ms;
    for (;;) {
      const due = ticks.filter((tick) => tick.next <= until).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      time = due.next;
      due.next += due.ms;
      due.run();
    }
    time = until;
  };
  const open = (state: DocumentVisibilityState = start) => {
    const doc = Object.assign(new EventTarget(), { visibilityState: state });
    const win = new EventTarget();
    const page = {};
    const away = trackPresence({
      doc: doc as unknown as Document,
      win: win as unknown as Window,
      now: () => time,
      lastSeen,
      every: (run, ms) => ticks.push({ run, ms, next: time + ms, page }),
    });
    const show = (next: DocumentVisibilityState) => {
      doc.visibilityState = next;
      doc.dispatchEvent(new Event('visibilitychange'));
    };
    // Gone: the page said so as it went, and its timers went with it.
    const leave = () => {
      win.dispatchEvent(new Event('pagehide'));
      ticks = ticks.filter((tick) => tick.page !== page);
    };
    return { away, show, leave };
  };
  return { ...open(), open, lastSeen, pass, setClock: (at: number) => (time = at) };
}

describe('whether the person was away (the "While you were away" wording)', () => {
  it('counts the app being opened for the first time as a return, for two minutes', () => {
    const { away, pass } = world();
    expect(away()).toBe(true);
    pass(119_000);
    expect(away()).toBe(true);
    pass(2_000);
    expect(away()).toBe(false);
  });

  it('is away once hidden a minute, and for two minutes after coming back from a minute or more', () => {
    const { away, show, pass } = world();
    pass(10 * 60_000);
    show('hidden');
    expect(away()).toBe(false);
    pass(60_000);
    expect(away()).toBe(true);
    show('visible');
    pass(90_000);
    expect(away()).toBe(true);
    pass(31_000);
    expect(away()).toBe(false);
  });

  it('is present after a glance elsewhere shorter than a minute, and while looking at a reconnect', () => {
    const { away, show, pass } = world();
    pass(10 * 60_000);
    show('hidden');
    pass(20_000);
    show('visible');
    expect(away()).toBe(false);
  });

  it('is present after a reload: the page left a second ago was being looked at', () => {
    const first = world();
    first.pass(10 * 60_000);
    first.leave();
    first.pass(1_000);
    expect(first.open().away()).toBe(false);
  });

  it('is present in a tab opened, or hidden and taking over, beside one in view all along', () => {
    const first = world();
    first.pass(60 * 60_000);
    const second = first.open('visible');
    expect(second.away()).toBe(false);
    // The tab in view reloads; the other, hidden for an hour, leads meanwhile: the person was here.
    second.show('hidden');
    first.pass(60 * 60_000);
    first.leave();
    expect(second.away()).toBe(false);
    // The reloaded page never came back, and nobody looks: a minute on, the hidden tab is away.
    first.pass(60_000);
    expect(second.away()).toBe(true);
  });

  it('takes a last seen ahead of the clock (set back since) as unknown: an opening is a return', () => {
    const { lastSeen, open, setClock } = world();
    lastSeen.write(5_000_000);
    setClock(2_000_000);
    expect(open().away()).toBe(true);
  });

  it('counts an opening after a minute or more unseen as a return, however the app was left', () => {
    const closed = world();
    closed.pass(5 * 60_000);
    closed.leave();
    closed.pass(60_000);
    expect(closed.open().away()).toBe(true);

    // Put away on a phone and never closed: the page was killed while hidden, with no pagehide.
    const killed = world();
    killed.pass(5 * 60_000);
    killed.show('hidden');
    killed.pass(30 * 60_000);
    expect(killed.open('visible').away()).toBe(true);

    // Left while hidden: when it was hidden is when it was last seen, not when the page went.
    const hiddenThenClosed = world();
    hiddenThenClosed.show('hidden');
    hiddenThenClosed.pass(50_000);
    hiddenThenClosed.leave();
    hiddenThenClosed.pass(20_000);
    expect(hiddenThenClosed.open('visible').away()).toBe(true);
  });
});
