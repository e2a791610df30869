import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { Type } from '@sinclair/typebox';
import { authenticate, currentUser, identifyIfToken } from '../http/authenticate.middleware';
import { parseBodies } from '../http/body-parser.middleware';
import { rememberOperation } from '../http/caller-context';
import { parseId } from '../http/input';
import { BodyCheck } from './body-check';
import type { AnyOperation, CallContext, IdParam } from './declare';

/** What handlers are given beside their request: the service clients and the gateway's settings and caches. */
export type OperationDependencies = Omit<CallContext, 'req' | 'res'>;

/** How the routes read bodies: `MAX_BODY_BYTES` for the API's parsed (not streamed) bodies. */
export interface BodyLimits {
  maxBodyBytes: number;
}

/** `/api/schemes/{id}` as express writes it: `/api/schemes/:id`. */
export function expressPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * The express routes of declared operations. Each route, in order: steps aside for a name another
 * operation owns; notes its operation (http/caller-context.ts: what the scope guard, the
 * failed-token count and the audit log judge the request by); reads the body — an API operation's
 * in the three encodings (a multipart one left to a streaming handler), a page's form; runs the
 * operation's own checks (`before`); checks the token where the operation reads one; then reads its
 * path ids and body against the declaration (a 422 naming every bad field at once, before any
 * service is called) and runs its handler. Errors go to the app's error handler.
 */
export function mountOperations(operations: readonly AnyOperation[], dependencies: OperationDependencies, limits: BodyLimits): Router {
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
  const apiBodies = { parsed: parseBodies({ ...limits, streams: false }), streamed: parseBodies({ ...limits, streams: true }) };
  const bodyReader = (declared: AnyOperation): RequestHandler[] => {
    if (declared.page) return [pageForm];
    if (!declared.path.startsWith('/api/')) return [];
    return [declared.streams ? apiBodies.streamed : apiBodies.parsed];
  };
  for (const declared of operations) {
    const body = new BodyCheck(Type.Object(declared.body?.fields ?? {}));
    // A name another operation owns at this place in the path (`/api/apps/upload`): not this one's.
    const besides = Object.entries(declared.params as Record<string, IdParam>).filter(([, param]) => param.besides);
    const stepAside: RequestHandler = (req, _res, next) => (besides.some(([name, param]) => param.besides!.has(String(req.params[name]))) ? next('route') : next());
    const noted: RequestHandler = (req, _res, next) => {
      rememberOperation(req, declared.operationId, { ...(req.params as Record<string, string>) });
      next();
    };
    const handlers = [
      ...(besides.length > 0 ? [stepAside] : []),
      noted,
      ...bodyReader(declared),
      ...(declared.before ?? []),
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
