import type { NextFunction, Request, Response } from 'express';
import { RequestContext, captureScope, currentContext } from '@hangar/logger';

export interface Caller {
  address: string;
  method: string;
  /** The declared operation express routed the request to, once it has (operations/mount.ts), with its path parameters as sent. */
  operation?: { id: string; params: Record<string, string> };
}

/**
 * Kept beside the request's context rather than in an AsyncLocalStorage of
 * its own: every storage in use costs work on every promise of every request
 * (libs/logger/src/request-context.ts), and the request's context already
 * travels wherever its code runs.
 */
const callers = new WeakMap<RequestContext, Caller>();
/** The same callers by request: for what runs outside the request's context (an answer's 'close'). */
const callersOfRequests = new WeakMap<Request, Caller>();
/** How to get back into a request's scope from a callback outside it. */
const scopes = new WeakMap<Request, <T>(fn: () => T) => T>();

/**
 * Keeps who is calling and what they asked for, for the rest of the request,
 * so the users client's wrappers — far from any `req` — can count failed
 * tokens per address (limits/failed-token-limit.ts), record where a token
 * was used, and hold a scoped token to the route's scopes (auth/scope-guard.ts).
 * Runs after the request context middleware, inside the request's context.
 */
export function rememberCaller(req: Request, _res: Response, next: NextFunction): void {
  const caller: Caller = { address: req.ip ?? 'unknown', method: req.method };
  const context = currentContext();
  if (context) callers.set(context, caller);
  callersOfRequests.set(req, caller);
  scopes.set(req, captureScope());
  next();
}

/** Notes which declared operation the request was routed to: what its token's scopes, the failed-token count and the audit log judge it by. */
export function rememberOperation(req: Request, id: string, params: Record<string, string>): void {
  const caller = callersOfRequests.get(req);
  if (caller) caller.operation = { id, params };
}

/** The operation `req` was routed to, if routing reached one. */
export function operationOf(req: Request): Caller['operation'] {
  return callersOfRequests.get(req)?.operation;
}

/**
 * Runs `fn` as part of `req` again: multipart field callbacks (busboy) run
 * outside the request's async context, so token checks made there restore it.
 */
export function asCallerOf<T>(req: Request, fn: () => T): T {
  const inScope = scopes.get(req);
  return inScope ? inScope(fn) : fn();
}

export function currentCaller(): Caller {
  const context = currentContext();
  return (context && callers.get(context)) ?? { address: 'unknown', method: '' };
}
