import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { Type } from '@sinclair/typebox';
import { authenticate, currentUser, identifyIfToken } from '../http/authenticate.middleware';
import { parseId } from '../http/input';
import { BodyCheck } from './body-check';
import type { AnyOperation, CallContext, IdParam } from './declare';

/** What handlers are given beside their request: the service clients and the gateway's settings and caches. */
export type OperationDependencies = Omit<CallContext, 'req' | 'res'>;

/** `/api/schemes/{id}` as express writes it: `/api/schemes/:id`. */
export function expressPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * The express routes of declared operations: a token check where the operation reads a token,
 * then its path ids and body checked against the declaration (a 422 naming every bad field at
 * once, before any service is called), then its handler. Errors go to the app's error handler.
 */
export function mountOperations(operations: readonly AnyOperation[], dependencies: OperationDependencies): Router {
  const { clients } = dependencies;
  const router = Router();
  const authenticated = authenticate(clients);
  // Once per request: a caller another middleware identified is not looked up again.
  const tokenCheck: RequestHandler = (req, res, next) => (req.user ? next() : authenticated(req, res, next));
  const tokenIfSent = identifyIfToken(clients);
  const callerCheck = (declared: AnyOperation): RequestHandler[] => {
    if (declared.scopes === null || declared.caller === 'handler') return [];
    return [declared.caller === 'optional' ? tokenIfSent : tokenCheck];
  };
  for (const declared of operations) {
    const body = new BodyCheck(Type.Object(declared.body?.fields ?? {}));
    // A name another operation owns at this place in the path (`/api/apps/upload`): not this one's.
    const besides = Object.entries(declared.params as Record<string, IdParam>).filter(([, param]) => param.besides);
    const stepAside: RequestHandler = (req, _res, next) => (besides.some(([name, param]) => param.besides!.has(String(req.params[name]))) ? next('route') : next());
    const handlers = [
      ...(besides.length > 0 ? [stepAside] : []),
      ...(declared.page ? [pageForm] : []),
      ...callerCheck(declared),
      async (req: Request, res: Response) => {
        await declared.handle({ ...dependencies, params: readParams(declared.params, req), body: body.read(req.body), req, res });
      },
    ];
    router[declared.method](expressPath(declared.path), ...handlers);
  }
  return router;
}

/** A page's form, outside `/api` and its body parsers: small, urlencoded, flat. */
const pageForm = express.urlencoded({ extended: false, limit: '16kb' });

/** The path's ids as numbers (a 422 naming one that is not an id); `me` is the caller's; text as sent. */
function readParams(declared: Record<string, IdParam>, req: Request): Record<string, number | string> {
  const read = (name: string, param: IdParam) => {
    if (param.kind === 'text') return String(req.params[name]);
    return param.kind === 'user' && req.params[name] === 'me' ? currentUser(req).id : parseId(req.params[name], name);
  };
  return Object.fromEntries(Object.entries(declared).map(([name, param]) => [name, read(name, param)]));
}

/** Whether a request is for an operation that streams its multipart body (`streams`): the body parsers leave those. */
export function streamingOperations(operations: readonly AnyOperation[]): (method: string, path: string) => boolean {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const streaming = operations
    .filter((declared) => declared.streams)
    .map((declared) => ({ method: declared.method.toUpperCase(), pattern: new RegExp(`^${declared.path.split(/\{[^}]+\}/).map(escape).join('[^/]+')}$`) }));
  return (method, path) => streaming.some((operation) => operation.method === method && operation.pattern.test(path));
}
