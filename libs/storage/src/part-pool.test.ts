import { PartPool } from './part-pool';

describe('PartPool', () => {
  it('when every part is handed out, then later takers wait in order and get the returned buffers themselves', async () => {
    const pool = new PartPool(16, 2);
    const a = await pool.acquire();
    const b = await pool.acquire();
    const order: Buffer[] = [];
    const second = pool.acquire().then((buf) => order.push(buf));
    const third = pool.acquire().then((buf) => order.push(buf));
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]);
    pool.release(b);
    pool.release(a);
    await Promise.all([second, third]);
    // Reused, not new: the pool never holds more than its cap.
    expect(order[0]).toBe(b);
    expect(order[1]).toBe(a);
    expect(pool.held).toBe(2);
    expect(pool.inUse).toBe(2);
  });

  it('when a buffer comes back and no one waits, then the next taker gets that same buffer', async () => {
    const pool = new PartPool(16, 4);
    const first = await pool.acquire();
    pool.release(first);
    expect(await pool.acquire()).toBe(first);
    expect(pool.held).toBe(1);
  });

  it('when all buffers have been idle for the idle time, then the pool lets them go', async () => {
    const pool = new PartPool(16, 4, 20);
    const bufs = await Promise.all([pool.acquire(), pool.acquire()]);
    bufs.forEach((buf) => pool.release(buf));
    expect(pool.held).toBe(2);
    await new Promise((r) => setTimeout(r, 60));
    expect(pool.held).toBe(0);
    expect(pool.inUse).toBe(0);
  });

  it('when a buffer is taken before the idle time ends, then nothing is dropped', async () => {
    const pool = new PartPool(16, 4, 40);
    pool.release(await pool.acquire());
    await new Promise((r) => setTimeout(r, 10));
    const again = await pool.acquire();
    await new Promise((r) => setTimeout(r, 60));
    expect(pool.held).toBe(1);
    pool.release(again);
  });

  it('when made with no room for a part, then it refuses rather than deadlocking every upload', () => {
    expect(() => new PartPool(16, 0)).toThrow(RangeError);
  });
});
