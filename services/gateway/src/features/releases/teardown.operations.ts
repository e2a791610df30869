import type { Request } from 'express';
import { InvalidArgument, isRefusal } from '@hangar/errors';
import { MANAGE } from '../../auth/token-scopes';
import type { ServiceClients } from '../../clients/service-clients';
import { actorOf, authenticateTokenOrSession, currentUser, readToken } from '../../http/authenticate.middleware';
import { publicBaseUrl } from '../../http/base-url';
import { lingerAfterEarlyResponse, receiveUpload } from '../../http/streamed-upload';
import { errors, ok, ref, uploadBody } from '../../openapi/openapi-parts';
import { operation, textParam } from '../../operations/declare';
import { presentTeardown } from '../../presenters/teardown.presenter';

const isMultipart = (req: Request) => /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');

/** A token from the header or query, or a `token` field sent before the file. */
function authenticateUploader(clients: ServiceClients, req: Request, fields: Record<string, string>): Promise<void> {
  return authenticateTokenOrSession(clients, req, readToken(req) ?? fields.token, 'Missing access token: send Authorization: Bearer <token>, ?token=, or a token field before the file');
}

/**
 * Teardown: any signed-in user posts a package and reads what its release would show,
 * without creating one. The file streams into storage like an upload, under `teardowns/`, after
 * two checks that cost nothing: the token before the file, and the file's first bytes — a
 * multi-GiB file that cannot be a package is refused before it is stored.
 */
export const teardownOperations = [
  operation({
    method: 'post',
    path: '/api/teardown',
    operationId: 'createTeardown',
    tag: 'Releases',
    summary: 'Read a package without publishing it',
    scopes: MANAGE,
    // The token may be a form field before the file: read by the handler, as the body streams.
    caller: 'handler',
    streams: true,
    params: {},
    responses: { '201': ok('What its release would show, kept for the uploader until `expires_at`', ref('Teardown')), ...errors(400, 401, 413, 422, 503, 507) },
    openApi: {
      description:
        'Any signed-in user. Streams the package to storage like an upload; a file whose first bytes match no package format is refused (422) before it is stored, one over the upload limit with 413.',
      requestBody: uploadBody({}, [], 'multipart/form-data; `token` before the file lets the gateway refuse before storing anything.'),
    },
    async handle({ clients, files, publicBaseUrl: base, req, res }) {
      lingerAfterEarlyResponse(req, res);
      if (!isMultipart(req)) {
        await authenticateUploader(clients, req, (req.body ?? {}) as Record<string, string>);
        throw InvalidArgument.field('file', "can't be blank: send the package as multipart/form-data");
      }
      const { couldBePackage, PACKAGE_HEAD_BYTES } = packageParsers();
      const upload = await receiveUpload(req, {
        storage: files.storage,
        maxBytes: files.maxUploadBytes,
        keyPrefix: 'teardowns',
        onBytes: (bytes) => files.onUploadBytes?.('package', bytes),
        beforeFile: (fields) => authenticateUploader(clients, req, fields),
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
        await authenticateUploader(clients, req, upload.fields);
        throw InvalidArgument.field('file', "can't be blank");
      }
      const { objectKey, size, fileName } = upload.file;
      try {
        const teardown = await clients.releases.createTeardown({ actor: actorOf(req), objectKey, size, fileName }, { deadline: files.uploadDeadlineMs });
        res.status(201).json(presentTeardown(teardown, publicBaseUrl(req, base), currentUser(req).timezone));
      } catch (err) {
        // As for uploads: only a refusal says nothing was recorded; otherwise the teardown orphan
        // janitor of releases removes the file later if no teardown refers to it.
        if (isRefusal(err)) await files.storage.delete(objectKey).catch(() => undefined);
        throw err;
      }
    },
  }),
  operation({
    method: 'get',
    path: '/api/teardown/{id}',
    operationId: 'getTeardown',
    tag: 'Releases',
    summary: 'A teardown, for its uploader',
    scopes: MANAGE,
    params: { id: textParam('Teardown id') },
    responses: { '200': ok('The teardown', ref('Teardown')), ...errors(401, 404, 503) },
    openApi: { description: 'Only the uploader: anyone else, and everyone once it has expired, gets 404.' },
    async handle({ clients, params, publicBaseUrl: base, req, res }) {
      const teardown = await clients.releases.getTeardown({ actor: actorOf(req), id: params.id });
      res.json(presentTeardown(teardown, publicBaseUrl(req, base), currentUser(req).timezone));
    },
  }),
];

/**
 * The package parsers (some 150 modules with their XML, plist and image libraries), loaded at
 * the first teardown rather than at start: the gateway needs only their head check, and only here.
 */
function packageParsers(): typeof import('@hangar/parsers') {
  return require('@hangar/parsers') as typeof import('@hangar/parsers');
}
