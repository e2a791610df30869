import { Request, Response, Router } from 'express';
import { InvalidArgument, isRefusal } from '@hangar/errors';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf, authenticate, currentUser, authenticateTokenOrSession, readToken } from '../http/authenticate.middleware';
import { publicBaseUrl } from '../http/base-url';
import { lingerAfterEarlyResponse, receiveUpload } from '../http/streamed-upload';
import { presentTeardown } from '../presenters/teardown.presenter';
import type { ReleasesRouteOptions } from './releases.routes';

const isMultipart = (req: Request) => /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');

/**
 * Teardown: any signed-in user posts a package and reads what its release would show,
 * without creating one. The file streams into storage like an upload, under `teardowns/`, after
 * two checks that cost nothing: the token before the file, and the file's first bytes — a
 * multi-GiB file that cannot be a package is refused before it is stored.
 */
export function teardownRoutes(clients: ServiceClients, options: ReleasesRouteOptions): Router {
  const router = Router();
  const base = (req: Request) => publicBaseUrl(req, options.publicBaseUrl);

  async function authenticateUploader(req: Request, fields: Record<string, string>): Promise<void> {
    await authenticateTokenOrSession(clients, req, readToken(req) ?? fields.token, 'Missing access token: send Authorization: Bearer <token>, ?token=, or a token field before the file');
  }

  router.post('/api/teardown', async (req: Request, res: Response) => {
    lingerAfterEarlyResponse(req, res);
    if (!isMultipart(req)) {
      await authenticateUploader(req, (req.body ?? {}) as Record<string, string>);
      throw InvalidArgument.field('file', "can't be blank: send the package as multipart/form-data");
    }
    const { couldBePackage, PACKAGE_HEAD_BYTES } = packageParsers();
    const upload = await receiveUpload(req, {
      storage: options.storage,
      maxBytes: options.maxUploadBytes,
      keyPrefix: 'teardowns',
      onBytes: (bytes) => options.onUploadBytes?.('package', bytes),
      beforeFile: (fields) => authenticateUploader(req, fields),
      checkHead: {
        bytes: PACKAGE_HEAD_BYTES,
        check: (head) => {
          if (!couldBePackage(head)) {
            throw InvalidArgument.field('file', 'is not a package Hangar can read (its first bytes match no ipa, apk, aab, zipped .app, dmg, exe, msi, deb, rpm or AppImage)');
          }
        },
      },
    });
    if (!upload.file) {
      await authenticateUploader(req, upload.fields);
      throw InvalidArgument.field('file', "can't be blank");
    }
    const { objectKey, size, fileName } = upload.file;
    try {
      const teardown = await clients.releases.createTeardown({ actor: actorOf(req), objectKey, size, fileName }, { deadline: options.uploadDeadlineMs });
      res.status(201).json(presentTeardown(teardown, base(req), currentUser(req).timezone));
    } catch (err) {
      // As for uploads: only a refusal says nothing was recorded; otherwise the teardown orphan
      // janitor of releases removes the file later if no teardown refers to it.
      if (isRefusal(err)) await options.storage.delete(objectKey).catch(() => undefined);
      throw err;
    }
  });

  router.get('/api/teardown/:id', authenticate(clients), async (req, res) => {
    const teardown = await clients.releases.getTeardown({ actor: actorOf(req), id: String(req.params.id) });
    res.json(presentTeardown(teardown, base(req), currentUser(req).timezone));
  });

  return router;
}

/**
 * The package parsers (some 150 modules with their XML, plist and image libraries), loaded at
 * the first teardown rather than at start: the gateway needs only their head check, and only here.
 */
function packageParsers(): typeof import('@hangar/parsers') {
  return require('@hangar/parsers') as typeof import('@hangar/parsers');
}
