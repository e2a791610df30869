import asyncHooks from 'node:async_hooks';
import HangarNodeEnvironment from './jest-node-environment';

function environment(): HangarNodeEnvironment {
  const config = { globalConfig: {}, projectConfig: { testEnvironmentOptions: {}, setupFiles: [], setupFilesAfterEnv: [] } };
  return new HangarNodeEnvironment(config as never, { console, docblockPragmas: {}, testPath: __filename });
}

/** What `storage.getStore()` reads in a callback that was scheduled inside `storage.run(value)` and runs after `between`. */
async function storeSeenLater(storage: asyncHooks.AsyncLocalStorage<string>, between: () => Promise<void>): Promise<string | undefined> {
  let seen: Promise<string | undefined> | undefined;
  storage.run('the file', () => {
    seen = new Promise((resolve) => setTimeout(() => resolve(storage.getStore()), 20));
  });
  await between();
  return seen;
}

describe('the test environment', () => {
  it('when a test file made AsyncLocalStorage stores, then they are disabled once the file is done, and later files get the class as it was', async () => {
    const before = asyncHooks.AsyncLocalStorage;
    const env = environment();
    await env.setup();
    const made = new asyncHooks.AsyncLocalStorage<string>();
    // Node 20 lets the class be replaced and needs it; Node 24 exports it by a getter and does not.
    const replaceable = Object.getOwnPropertyDescriptor(asyncHooks, 'AsyncLocalStorage')?.writable === true;
    expect(await storeSeenLater(made, () => env.teardown())).toBe(replaceable ? undefined : 'the file');
    expect(asyncHooks.AsyncLocalStorage).toBe(before);
  });

  it('when a store was made outside a test file, then the environment leaves it alone', async () => {
    const outside = new asyncHooks.AsyncLocalStorage<string>();
    const env = environment();
    await env.setup();
    expect(await storeSeenLater(outside, () => env.teardown())).toBe('the file');
  });
});
