import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';

export interface Caller {
  address: string;
  method: string;
  /** The whole path, as the client sent it (before any router strips a prefix). */
  path: string;
}

const callers = new AsyncLocalStorage<Caller>();
const byRequest = new WeakMap<Request, Caller>();

/**
 * Keeps who is calling and what they asked for, for the rest of the request,
 * so the users client's wrappers — far from any `req` — can count failed
 * tokens per address (limits/failed-token-limit.ts), record where a token
 * was used, and hold a scoped token to the route's scopes (auth/scope-guard.ts).
 */
export function rememberCaller(req: Request, _res: Response, next: NextFunction): void {
  const caller = { address: req.ip ?? 'unknown', method: req.method, path: req.path };
  byRequest.set(req, caller);
  callers.run(caller, () => next());
}

/**
 * Runs `fn` as part of `req` again: multipart field callbacks (busboy) run
 * outside the request's async context, so token checks made there restore it.
 */
export function asCallerOf<T>(req: Request, fn: () => T): T {
  const caller = byRequest.get(req);
  return caller ? callers.run(caller, fn) : fn();
}

export function currentCaller(): Caller {
  return callers.getStore() ?? { address: 'unknown', method: '', path: '' };
}
