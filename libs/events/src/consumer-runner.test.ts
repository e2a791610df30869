import { backoffMs } from './consumer-runner';

describe('backoffMs', () => {
  it('when deliveries fail in a row, then the delay doubles from one second', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
  });

  it('when the delay would pass the cap, then the cap is used', () => {
    expect(backoffMs(7, 60_000)).toBe(60_000);
    expect(backoffMs(200)).toBe(60_000);
    expect(backoffMs(3, 2_500)).toBe(2_500);
  });

  it('when the cap is below one second, then every delay is the cap', () => {
    expect(backoffMs(1, 50)).toBe(50);
    expect(backoffMs(4, 50)).toBe(50);
  });

  it('when the delivery count is zero or missing information, then the first delay is used', () => {
    expect(backoffMs(0)).toBe(1_000);
    expect(backoffMs(-3)).toBe(1_000);
  });
});
