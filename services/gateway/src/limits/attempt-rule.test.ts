import { waitAfter } from './attempt-rule';

describe('waitAfter', () => {
  const rule = { name: 'unlock', maxFailures: 3, windowMs: 1000 };

  it('when fewer failures than the limit are in the window, then the next try may come now', () => {
    expect(waitAfter(rule, [100, 200], 300)).toBe(0);
  });

  it('when the limit is reached, then the wait ends when the oldest counted failure leaves the window', () => {
    expect(waitAfter(rule, [100, 200, 300], 400)).toBe(700);
  });

  it('when older failures have left the window, then they no longer count', () => {
    expect(waitAfter(rule, [0, 100, 1500, 1600], 1700)).toBe(0);
  });
});
