import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';

const addresses = new AsyncLocalStorage<string>();

/**
 * Keeps the caller's address for the rest of the request, so the users
 * client's token check (wrapped in `failed-token-limit.ts`, far from any
 * `req`) can count failures per address.
 */
export function rememberClientAddress(req: Request, _res: Response, next: NextFunction): void {
  addresses.run(req.ip ?? 'unknown', () => next());
}

export function currentClientAddress(): string {
  return addresses.getStore() ?? 'unknown';
}
