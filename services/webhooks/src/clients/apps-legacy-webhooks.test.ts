import { Unavailable, Unimplemented } from '@hangar/errors';
import { createLogger } from '@hangar/logger';
import { AppsLegacyWebhooks } from './apps-legacy-webhooks';

type Client = ConstructorParameters<typeof AppsLegacyWebhooks>[0];

/** Moves that fail with `failures` in turn, then succeed; each try's time on the fake clock is kept. */
function flakyMove(failures: Error[]) {
  const triedAt: number[] = [];
  const move = async () => {
    triedAt.push(Date.now());
    const failure = failures.shift();
    if (failure) throw failure;
    return undefined;
  };
  return { move, triedAt };
}

describe('AppsLegacyWebhooks.untilMoved', () => {
  const logger = createLogger({ service: 'webhooks-test', level: 'silent' });

  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('when apps does not answer yet, then the move is tried again soon, then after twice the wait each time, up to the setting', async () => {
    const { move, triedAt } = flakyMove([new Unavailable(), new Unavailable(), new Unimplemented('no export yet'), new Unavailable(), new Unavailable(), new Unavailable()]);
    const moved = new AppsLegacyWebhooks({} as Client, logger, 2_000).untilMoved(move);
    await jest.runAllTimersAsync();
    await moved;
    // Apps usually answers within a second of starting beside webhooks: the first try again comes
    // after 250 ms, not after the full interval, which held every start back by 2 s.
    expect(triedAt).toEqual([0, 250, 750, 1_750, 3_750, 5_750, 7_750]);
  });

  it('when apps does not answer its health yet, then nothing is asked of it until it does, and it is asked every 100 ms meanwhile', async () => {
    const { move, triedAt } = flakyMove([]);
    const askedAt: number[] = [];
    const ready = async () => {
      askedAt.push(Date.now());
      return askedAt.length > 3;
    };
    const moved = new AppsLegacyWebhooks({} as Client, logger, 2_000, ready).untilMoved(move);
    await jest.runAllTimersAsync();
    await moved;
    // The first call goes out when apps answers, not at the end of a reconnect backoff.
    expect(askedAt).toEqual([0, 100, 200, 300]);
    expect(triedAt).toEqual([300]);
  });

  it('when apps stays away past its start, then it is asked every retry interval', async () => {
    const { move, triedAt } = flakyMove([]);
    let asked = 0;
    const ready = async () => Date.now() >= 14_000 || (asked++, false);
    const moved = new AppsLegacyWebhooks({} as Client, logger, 2_000, ready).untilMoved(move);
    await jest.runAllTimersAsync();
    await moved;
    // 100 asks in the first 10 s, then one every 2 s (at 10.0, 12.0 and 14.0 s).
    expect(asked).toBe(102);
    expect(triedAt).toEqual([14_000]);
  });

  it('when the setting is shorter than the first wait, then the setting is the wait', async () => {
    const { move, triedAt } = flakyMove([new Unavailable(), new Unavailable()]);
    const moved = new AppsLegacyWebhooks({} as Client, logger, 100).untilMoved(move);
    await jest.runAllTimersAsync();
    await moved;
    expect(triedAt).toEqual([0, 100, 200]);
  });

  it('when the move fails otherwise, then the start stops with that failure instead of trying again', async () => {
    const { move, triedAt } = flakyMove([new Error('disk full')]);
    await expect(new AppsLegacyWebhooks({} as Client, logger, 2_000).untilMoved(move)).rejects.toThrow('disk full');
    expect(triedAt).toEqual([0]);
  });
});
