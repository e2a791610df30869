import { ByteBudget } from './byte-budget';

describe('ByteBudget', () => {
  it('when the budget is used up, then later takers wait in order until bytes come back', async () => {
    const budget = new ByteBudget(10);
    await budget.acquire(6);
    const order: string[] = [];
    const second = budget.acquire(6).then(() => order.push('second'));
    const third = budget.acquire(4).then(() => order.push('third'));
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]);
    budget.release(6);
    await Promise.all([second, third]);
    expect(order).toEqual(['second', 'third']);
    expect(budget.inUse).toBe(10);
  });

  it('when one asks for more than the whole budget, then it gets the whole budget rather than waiting forever', async () => {
    const budget = new ByteBudget(8);
    await budget.acquire(100);
    expect(budget.inUse).toBe(8);
    budget.release(100);
    expect(budget.inUse).toBe(0);
  });
});
