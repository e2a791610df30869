import { Router } from 'express';
import { NotFound } from '@hangar/errors';

/**
 * Anything else under a symbol server's root (debuginfod's source files and sections, a malformed
 * path): a 404 that names the layout, not the console's page. Mounted after the symbol operations.
 */
export function symbolServerFallbacks(): Router {
  const router = Router();
  const notServed = (layouts: string) => () => {
    throw new NotFound(`Hangar serves ${layouts}`);
  };
  router.use('/debuginfod', notServed('/debuginfod/[<credential>/]buildid/<build-id>/debuginfo and …/executable'));
  router.use('/apple', notServed('/apple/[<credential>/]dsym/<UUID>.zip and /apple/[<credential>/]unified/<2 hex>/<30 hex>/debuginfo'));
  router.use('/symbols', notServed('/symbols/[<credential>/]<file>/<GUID><age>/<file>'));
  router.use('/breakpad', notServed('/breakpad/[<credential>/]<module>/<module id>/<module without .pdb/.exe/.dll>.sym'));
  return router;
}
