import { Request, Response, Router } from 'express';
import { InvalidArgument } from '@hangar/errors';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf } from '../http/authenticate.middleware';
import { parseId, readTextFields } from '../http/input';
import { presentCollaborator } from '../presenters/app.presenter';
import { DELETED, appsAuth } from './apps.routes';

/**
 * The user id from the path, else from the body (Zealot clients send it
 * there); 0 when absent, which the service reports as a blank `user_id`
 * after its permission check.
 */
function userIdOf(req: Request): number {
  if (req.params.user_id !== undefined) return parseId(req.params.user_id, 'user_id');
  const value = (req.body as Record<string, unknown> | undefined)?.user_id;
  if (value === undefined || value === null || value === '') return 0;
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value > 0) return value;
    throw InvalidArgument.field('user_id', 'must be a positive integer');
  }
  return parseId(value, 'user_id');
}

export function collaboratorsRoutes(clients: ServiceClients): Router {
  const router = Router();
  const auth = appsAuth(clients);
  const appIdOf = (req: Request) => parseId(req.params.app_id, 'app_id');

  router.get('/api/apps/:app_id/collaborators', auth, async (req, res) => {
    const result = await clients.apps.listCollaborators({ actor: actorOf(req), appId: appIdOf(req) });
    res.json(result.collaborators.map(presentCollaborator));
  });

  router.get('/api/apps/:app_id/collaborators/:user_id', auth, async (req, res) => {
    const collaborator = await clients.apps.getCollaborator({ actor: actorOf(req), appId: appIdOf(req), userId: userIdOf(req) });
    res.json(presentCollaborator(collaborator));
  });

  const add = async (req: Request, res: Response) => {
    const appId = appIdOf(req);
    const userId = userIdOf(req);
    const { role } = readTextFields(req.body, ['role'] as const);
    const collaborator = await clients.apps.addCollaborator({ actor: actorOf(req), appId, userId, role: role ?? '' });
    res.status(201).json(presentCollaborator(collaborator));
  };
  router.post('/api/apps/:app_id/collaborators', auth, add);
  router.post('/api/apps/:app_id/collaborators/:user_id', auth, add);

  router.put('/api/apps/:app_id/collaborators/:user_id', auth, async (req, res) => {
    const appId = appIdOf(req);
    const userId = userIdOf(req);
    const { role } = readTextFields(req.body, ['role'] as const);
    const collaborator = await clients.apps.updateCollaborator({ actor: actorOf(req), appId, userId, role: role ?? '' });
    res.json(presentCollaborator(collaborator));
  });

  router.delete('/api/apps/:app_id/collaborators/:user_id', auth, async (req, res) => {
    await clients.apps.removeCollaborator({ actor: actorOf(req), appId: appIdOf(req), userId: userIdOf(req) });
    res.json(DELETED);
  });

  return router;
}
