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

/** A page whose visibility the test sets, and a clock it moves; `open` loads the app again (a reload, a new tab). */
function world(start: 'visible' | 'hidden' = 'visible', lastSeen = keeper()) {
  let time = 1_000_000;
  const open = (state: DocumentVisibilityState = start) => {
    const doc = Object.assign(new EventTarget(), { visibilityState: state });
    const win = new EventTarget();
    const away = trackPresence({
      doc: doc as unknown as Document,
      win: win as unknown as Window,
      now: () => time,
      lastSeen,
    });
    const show = (next: DocumentVisibilityState) => {
      doc.visibilityState = next;
      doc.dispatchEvent(new Event('visibilitychange'));
    };
    return { away, show, leave: () => win.dispatchEvent(new Event('pagehide')) };
  };
  return { ...open(), open, lastSeen, pass: (ms: number) => (time += ms) };
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

  it('is away while hidden, and for two minutes after coming back from a minute or more', () => {
    const { away, show, pass } = world();
    pass(10 * 60_000);
    show('hidden');
    expect(away()).toBe(true);
    pass(60_000);
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
