/**
 * Waiting for a condition instead of a fixed time: the check is read every `stepMs` until it
 * holds, so a test goes on as soon as the thing it waits for has happened (quick on a quiet
 * machine) and still passes on a loaded one (up to `timeoutMs`). The step is a polling
 * interval, not a wait the test depends on; the suite's fixed-wait count does not see it.
 */
export interface EventuallyOptions {
  /** How long the condition may take before the test fails (default 10 s). */
  timeoutMs?: number;
  /** How often the check is read (default 25 ms). */
  stepMs?: number;
  /** What is waited for, named in the timeout's error. */
  what?: string;
  /** Read when the wait times out, for the error: the state that did not come. */
  explain?: () => Promise<string> | string;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` returns true; throws (naming `what` and `explain()`) after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, options: EventuallyOptions = {}): Promise<void> {
  const { timeoutMs = 10_000, stepMs = 25, what = 'a condition', explain } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${explain ? `: ${await explain()}` : ''}`);
    await pause(stepMs);
  }
}

/** The value `read` returns once `ok` holds of it (the same wait as `eventually`). */
export async function eventuallyValue<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, options: EventuallyOptions = {}): Promise<T> {
  let value!: T;
  await eventually(async () => ok((value = await read())), options);
  return value;
}
