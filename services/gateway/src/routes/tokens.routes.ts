import { Router } from 'express';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf, currentUser } from '../http/authenticate.middleware';
import { parseId, readTextFields } from '../http/input';
import { presentToken } from '../presenters/user.presenter';
import { requireNoBroaderThan } from '../auth/narrower-token';
import { readTokenLimits } from './token-limits-input';
import { userIdParam } from './users.routes';

/** Personal access tokens of a user: the user themselves or an admin. */
export function tokensRoutes(clients: ServiceClients): Router {
  const router = Router();

  router.get('/api/users/:id/tokens', async (req, res) => {
    const result = await clients.users.listTokens({ actor: actorOf(req), userId: userIdParam(req) });
    res.json(result.tokens.map((t) => presentToken(t, currentUser(req).timezone)));
  });

  router.post('/api/users/:id/tokens', async (req, res) => {
    const { name } = readTextFields(req.body, ['name'] as const);
    const limits = readTokenLimits(req.body as Record<string, unknown> | undefined);
    requireNoBroaderThan(currentUser(req).grant, limits);
    const created = await clients.users.createToken({ actor: actorOf(req), userId: userIdParam(req), name: name ?? '', ...(limits ? { limits } : {}) });
    // The only response that ever carries the token itself.
    res.status(201).json({ ...presentToken(created.token!, currentUser(req).timezone), token: created.secret });
  });

  router.delete('/api/users/:id/tokens/:token_id', async (req, res) => {
    await clients.users.revokeToken({ actor: actorOf(req), userId: userIdParam(req), tokenId: parseId(req.params.token_id, 'token_id') });
    res.json({ mesage: 'OK' });
  });

  return router;
}
