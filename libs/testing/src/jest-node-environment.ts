import asyncHooks from 'node:async_hooks';
import type { Circus } from '@jest/types';
import NodeEnvironment from 'jest-environment-node';
import { TEST_FAILED_FLAG } from './failure-logs';

type Storage = asyncHooks.AsyncLocalStorage<unknown>;

/**
 * Jest's node environment, plus: every AsyncLocalStorage a test file creates
 * is disabled once the file is done.
 *
 * Each test file loads the libraries afresh, so each makes its own request
 * context and query-log stores (libs/logger, libs/mongo), and OpenTelemetry
 * its own. Node 20 keeps every store that was ever run in one process-wide
 * list and, for every promise made anywhere, copies the current value of
 * each; nothing ever leaves that list unless `disable()` is called. A jest
 * worker runs file after file in one process, so after a few dozen files
 * every promise paid for all of them: the mapping-streaming test took 8 s
 * alone and 186 s as the last file of a CI run (42 s after eight component
 * files). In a service there is one of each store per process, as designed.
 */
export default class HangarNodeEnvironment extends NodeEnvironment {
  private readonly created: Storage[] = [];
  private original?: typeof asyncHooks.AsyncLocalStorage;

  override async setup(): Promise<void> {
    await super.setup();
    // Node 24 exports the class through a getter and keeps stores in a context
    // frame that only holds the stores set in it: a store left behind costs
    // nothing there (200 of them: 4.8 s against 4.2 s for the mapping-streaming work,
    // where Node 20 took 299 s against 6 s), so there is nothing to do.
    if (!Object.getOwnPropertyDescriptor(asyncHooks, 'AsyncLocalStorage')?.writable) return;
    const created = this.created;
    const Original = asyncHooks.AsyncLocalStorage;
    this.original = Original;
    // The core module is one object for the whole worker (jest does not sandbox
    // core modules), and the libraries read this export when they construct a store.
    asyncHooks.AsyncLocalStorage = class TrackedAsyncLocalStorage<T> extends Original<T> {
      constructor() {
        super();
        created.push(this as Storage);
      }
    };
  }

  /** Marks the file's global when a test or hook fails: its Hangars then print their warnings and errors on stop (failure-logs.ts). */
  handleTestEvent(event: Circus.Event): void {
    if (event.name === 'test_fn_failure' || event.name === 'hook_failure') this.global[TEST_FAILED_FLAG] = true;
  }

  override async teardown(): Promise<void> {
    if (this.original) asyncHooks.AsyncLocalStorage = this.original;
    for (const storage of this.created.splice(0)) storage.disable();
    await super.teardown();
  }
}
