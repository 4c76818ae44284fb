import { describe, expect, it } from 'vitest';
import { trackPresence } from '../../src/app/presence.ts';

/** A document whose visibility the test sets, and a clock it moves. */
function world(start: 'visible' | 'hidden' = 'visible') {
  const target = new EventTarget();
  const doc = Object.assign(target, { visibilityState: start as DocumentVisibilityState });
  let time = 1_000_000;
  const away = trackPresence(doc as unknown as Document, () => time);
  const show = (state: DocumentVisibilityState) => {
    doc.visibilityState = state;
    target.dispatchEvent(new Event('visibilitychange'));
  };
  return { away, show, pass: (ms: number) => (time += ms) };
}

describe('whether the person was away (the "While you were away" wording)', () => {
  it('counts the app being opened as a return, for two minutes', () => {
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
});
