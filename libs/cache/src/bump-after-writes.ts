/**
 * Wraps a gRPC service implementation so that every call of a method that may
 * write bumps the service's generation keys before it answers — also when it
 * fails, since a failed call may have written part of its change. Read-only
 * methods are named; every other method counts as a write, so a method added
 * later invalidates caches until someone says it does not.
 */
export function bumpAfterWrites<T extends object>(implementation: T, readOnly: ReadonlySet<string>, bump: () => Promise<void>): T {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(implementation)) {
    if (typeof method !== 'function' || readOnly.has(name)) {
      wrapped[name] = method;
      continue;
    }
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (method as (...a: unknown[]) => unknown).apply(implementation, args);
      } finally {
        await bump();
      }
    };
  }
  return wrapped as T;
}
