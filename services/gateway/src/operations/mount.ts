import { Router, type Request, type Response } from 'express';
import { Type } from '@sinclair/typebox';
import type { ServiceClients } from '../clients/service-clients';
import { authenticate } from '../http/authenticate.middleware';
import { parseId } from '../http/input';
import type { AnyOperation } from './declare';
import { BodyCheck } from './body-check';

/** `/api/schemes/{id}` as express writes it: `/api/schemes/:id`. */
export function expressPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * The express routes of declared operations: a token check where the operation reads a token,
 * then its path ids and body checked against the declaration (a 422 naming every bad field at
 * once, before any service is called), then its handler. Errors go to the app's error handler.
 */
export function mountOperations(operations: readonly AnyOperation[], { clients, publicBaseUrl }: { clients: ServiceClients; publicBaseUrl?: string }): Router {
  const router = Router();
  const tokenCheck = authenticate(clients);
  for (const declared of operations) {
    const body = new BodyCheck(Type.Object(declared.body?.fields ?? {}));
    const handlers = [
      ...(declared.scopes === null ? [] : [tokenCheck]),
      async (req: Request, res: Response) => {
        const params = Object.fromEntries(Object.keys(declared.params).map((name) => [name, parseId(req.params[name], name)]));
        await declared.handle({ params, body: body.read(req.body), clients, publicBaseUrl, req, res });
      },
    ];
    router[declared.method](expressPath(declared.path), ...handlers);
  }
  return router;
}
