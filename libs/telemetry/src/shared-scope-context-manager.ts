import { Context, ROOT_CONTEXT } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { traceScope } from '@hangar/logger';

/**
 * OpenTelemetry's context kept in the request context's AsyncLocalStorage
 * (libs/logger request-context.ts) instead of one of its own: the same
 * propagation, half the stores copied into every promise a request makes.
 * Binding functions and event emitters is inherited; it goes through
 * `active` and `with` below. The parent's own storage is never run, so it
 * costs nothing.
 */
export class SharedScopeContextManager extends AsyncLocalStorageContextManager {
  override active(): Context {
    return (traceScope.active() as Context | undefined) ?? ROOT_CONTEXT;
  }

  override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return traceScope.run(context, () => fn.apply(thisArg, args));
  }

  override enable(): this {
    return this;
  }

  /** The storage is the request context's, which outlives tracing: nothing to switch off. */
  override disable(): this {
    return this;
  }
}
