import { describe, expect, it } from 'vitest';
import { FAILING_PUSHES, PushAnswers } from '../../src/relay/push/push-answers.ts';

const START = Date.parse('2026-12-02T10:00:00Z');

describe("the push services' answers", () => {
  it('say the pushes are failing after five failures in a row over a minute, until one is accepted', () => {
    const answers = new PushAnswers();
    // One alert refused and tried again with backoff: 2, 4, 8, 16, 32 s later.
    const tries = [0, 2_000, 6_000, 14_000, 30_000, 62_000].map((ms) => START + ms);
    answers.count('503', tries[0]!);
    answers.count('unreachable', tries[1]!);
    answers.count('429', tries[2]!);
    answers.count('503', tries[3]!);
    // Four in a row, 59 s on: not yet.
    expect(answers.failing(START + 59_000)).toBeNull();
    answers.count('503', tries[4]!);
    // Five, but for less than a minute: a burst refused at once is not an outage.
    expect(answers.failing(START + FAILING_PUSHES.forMs - 1)).toBeNull();
    expect(answers.failing(START + FAILING_PUSHES.forMs)).toEqual({ consecutive: 5, since: START, lastAnswer: '503' });
    // A device gone, or a push its fence held back, says nothing of the service: the run goes on.
    answers.count('410', tries[5]!);
    answers.count('fenced', tries[5]!);
    answers.count('403', tries[5]!);
    expect(answers.failing(tries[5]!)).toEqual({ consecutive: 6, since: START, lastAnswer: '403' });
    // Nothing posted for an hour: still failing, nothing says the service came back.
    expect(answers.failing(START + 3_600_000)).not.toBeNull();
    answers.count('201', START + 3_600_000);
    expect(answers.failing(START + 3_600_000)).toBeNull();
    expect(Object.fromEntries(answers)).toEqual({
      '503': 3,
      unreachable: 1,
      '429': 1,
      '410': 1,
      fenced: 1,
      '403': 1,
      '201': 1,
    });
  });

  it('start a new run after an accepted push, counted from its own first failure', () => {
    const answers = new PushAnswers({ pushes: 2, forMs: 1_000 });
    answers.count('503', START);
    answers.count('201', START + 500);
    answers.count('502', START + 600);
    answers.count('502', START + 900);
    expect(answers.failing(START + 1_500)).toBeNull();
    expect(answers.failing(START + 1_600)).toEqual({ consecutive: 2, since: START + 600, lastAnswer: '502' });
  });
});
