import { DEPENDENCY_CHECK_WAIT_MS, DEPENDENCY_RESULT_FRESH_MS, Dependency, dependencyChecks, dependencyHealthName } from './dependency-checks';

const DATABASE = dependencyHealthName('database');

/** A dependency whose checks the test answers: each call waits until `answer` resolves it. */
function controlledCheck() {
  const pending: ((ok: boolean) => void)[] = [];
  return {
    calls: () => pending.length,
    check: () => new Promise<boolean>((resolve) => pending.push(resolve)),
    answer: (ok: boolean) => pending[pending.length - 1]!(ok),
  };
}

describe('dependency checks: on demand, never on a timer', () => {
  let clock = 0;
  const now = () => clock;
  let reported: [Dependency, boolean][];
  const report = (name: Dependency, ok: boolean) => reported.push([name, ok]);

  beforeEach(() => {
    clock = 1_000_000;
    reported = [];
  });

  it('when the checks are set up, then each dependency is checked once and reported down until it answers', async () => {
    const database = controlledCheck();
    dependencyChecks({ database: database.check }, report, now);
    expect(database.calls()).toBe(1);
    expect(reported).toEqual([['database', false]]);
    database.answer(true);
    await new Promise(setImmediate);
    expect(reported).toEqual([
      ['database', false],
      ['database', true],
    ]);
  });

  it('when nobody asks, then nothing is checked however long it stays so (an idle service costs no queries)', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    try {
      const database = controlledCheck();
      dependencyChecks({ database: database.check }, report, () => Date.now());
      database.answer(true);
      await jest.advanceTimersByTimeAsync(60_000);
      expect(database.calls()).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('when asked within a second of the last result, then that result is answered and nothing is checked', async () => {
    const database = controlledCheck();
    const checks = dependencyChecks({ database: database.check }, report, now);
    database.answer(true);
    await new Promise(setImmediate);
    clock += DEPENDENCY_RESULT_FRESH_MS - 1;
    await checks.freshen(DATABASE);
    await checks.freshen(DATABASE);
    expect(database.calls()).toBe(1);
  });

  it('when asked after the last result aged, then the dependency is checked again and the question waits for its answer', async () => {
    const database = controlledCheck();
    const checks = dependencyChecks({ database: database.check }, report, now);
    database.answer(true);
    await new Promise(setImmediate);
    clock += DEPENDENCY_RESULT_FRESH_MS;
    const asked = checks.freshen(DATABASE);
    // Two questions at once share one check.
    const alsoAsked = checks.freshen(DATABASE);
    expect(database.calls()).toBe(2);
    database.answer(false);
    await Promise.all([asked, alsoAsked]);
    expect(reported.at(-1)).toEqual(['database', false]);
  });

  it('when a check is slow, then the question is answered with the last result after the wait, and the check reports when it answers', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    try {
      const database = controlledCheck();
      const checks = dependencyChecks({ database: database.check }, report, now);
      database.answer(true);
      await new Promise(setImmediate);
      clock += DEPENDENCY_RESULT_FRESH_MS;
      let answered = false;
      const asked = checks.freshen(DATABASE).then(() => (answered = true));
      await jest.advanceTimersByTimeAsync(DEPENDENCY_CHECK_WAIT_MS - 1);
      expect(answered).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      await asked;
      expect(reported.at(-1)).toEqual(['database', true]);
      database.answer(false);
      await new Promise(setImmediate);
      expect(reported.at(-1)).toEqual(['database', false]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('when a question names something that is no dependency (the process itself), then nothing is checked', async () => {
    const database = controlledCheck();
    const checks = dependencyChecks({ database: database.check }, report, now);
    clock += 10 * DEPENDENCY_RESULT_FRESH_MS;
    await checks.freshen('');
    await checks.freshen(dependencyHealthName('storage'));
    expect(database.calls()).toBe(1);
  });
});
