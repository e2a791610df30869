import { Router } from 'express';
import { openApiDocument } from '../openapi/openapi';

/** `GET /api/openapi.json`: the API's OpenAPI 3.1 document, no token needed. */
export function openApiRoutes(version: string): Router {
  const router = Router();
  const body = JSON.stringify(openApiDocument(version));
  router.get('/api/openapi.json', (_req, res) => {
    res.type('application/json').setHeader('Cache-Control', 'public, max-age=300');
    res.send(body);
  });
  return router;
}
