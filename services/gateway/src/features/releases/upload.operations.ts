import type { Request } from 'express';
import { InvalidArgument, isRefusal } from '@hangar/errors';
import { oversizedReleaseFields } from '@hangar/release-shape';
import { UPLOAD } from '../../auth/token-scopes';
import { debugFilesOfReleases, linksIfAvailable } from '../../clients/build-links';
import type { ServiceClients } from '../../clients/service-clients';
import { actorOf, authenticateTokenOrSession, currentUser, readToken } from '../../http/authenticate.middleware';
import { publicBaseUrl } from '../../http/base-url';
import { readTextFields } from '../../http/input';
import { lingerAfterEarlyResponse } from '../../http/streamed-upload';
import { receiveCheckedUpload } from '../uploads/checked-upload';
import { UPLOAD_WITH_TOKEN, errors, ok, ref, str, uploadBody } from '../../openapi/openapi-parts';
import { type CallContext, operation } from '../../operations/declare';
import { presentRelease } from '../../presenters/release.presenter';
import { finishUpload } from '../../uploads/finish-upload';

const UPLOAD_FIELDS = [
  'channel_key', 'name', 'password', 'release_type', 'source', 'changelog', 'branch', 'git_commit', 'ci_url',
  'custom_fields', 'release_version', 'build_version', 'notify',
] as const;

const isMultipart = (req: Request) => /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');

/**
 * A token and a known channel are checked before a byte is stored: from the header or query, or
 * from form fields sent before the file part (Zealot clients send `token` and `channel_key`
 * first). The fields are read as every field is (text, no NUL): a key that cannot be looked up is
 * a 422 here.
 */
async function checkBeforeStoring(clients: ServiceClients, req: Request, raw: Record<string, unknown>): Promise<void> {
  const fields = readTextFields(raw, ['token', 'channel_key'] as const);
  await authenticateTokenOrSession(clients, req, readToken(req) ?? fields.token, 'Missing access token: send Authorization: Bearer <token>, ?token=, or a token field');
  // Past its limit a field is refused before the package is streamed (the releases service checks fields sent after it).
  const oversized = oversizedReleaseFields(Object.fromEntries(Object.entries(raw).filter(([, v]) => typeof v === 'string')) as Record<string, string>);
  if (Object.keys(oversized).length > 0) throw new InvalidArgument(`${Object.keys(oversized).join(', ')} too long`, oversized);
  if (fields.channel_key) {
    const context = await clients.apps.resolveChannel({ channelKey: fields.channel_key, channelId: 0 });
    await clients.apps.checkPermission({ actor: actorOf(req), appId: context.app!.id, action: 'releases.upload' });
  }
}

/** The new release as the upload answers it: with its debug files' links when that service answers. */
async function answerCreated({ clients, publicBaseUrl: base, req, res }: CallContext, release: Parameters<typeof presentRelease>[0]): Promise<void> {
  const files = await linksIfAvailable(debugFilesOfReleases(clients, [release]));
  res.status(201).json(presentRelease(release, files?.get(release.id), publicBaseUrl(req, base), req.user?.timezone));
}

/** Every field as for a file, with the package already stored by a resumable upload. */
async function finishResumable(call: CallContext, body: Record<string, unknown>): Promise<void> {
  const { clients, files, req } = call;
  const fields = readTextFields(body, [...UPLOAD_FIELDS, 'upload_id', 'sha256', 'token'] as const);
  await checkBeforeStoring(clients, req, { token: fields.token ?? '', channel_key: fields.channel_key ?? '' });
  if (!files.uploads) throw InvalidArgument.field('upload_id', 'resumable uploads are not enabled on this server');
  const { result } = await finishUpload(
    { ownerId: currentUser(req).id, purpose: 'package', uploadId: fields.upload_id!.trim(), ...(fields.sha256 ? { sha256: fields.sha256.trim() } : {}), waitMs: files.uploadDeadlineMs },
    files.uploads,
    {
      make: async (record) => {
        const release = await clients.releases.createRelease(
          {
            ...releaseFields(req, fields),
            channelKey: fields.channel_key?.trim() || record.channelKey,
            objectKey: record.objectKey,
            size: record.length,
            fileName: record.fileName,
            // Hashed by the gateway as the bytes arrived (or read back once): the release shows it.
            sha256: record.sha256!,
          },
          { deadline: files.uploadDeadlineMs },
        );
        return { id: release.id, result: release };
      },
      existing: (id) => clients.releases.getRelease({ id }),
    },
  );
  await answerCreated(call, result);
}

/** The upload form's fields as the releases service takes them (the file's own fields aside). */
function releaseFields(req: Request, fields: Partial<Record<(typeof UPLOAD_FIELDS)[number], string>>) {
  return {
    actor: actorOf(req),
    name: fields.name,
    password: fields.password,
    releaseType: fields.release_type ?? '',
    source: fields.source ?? '',
    branch: fields.branch ?? '',
    gitCommit: fields.git_commit ?? '',
    ciUrl: fields.ci_url ?? '',
    changelog: fields.changelog ?? '',
    customFields: fields.custom_fields ?? '',
    releaseVersion: fields.release_version ?? '',
    buildVersion: fields.build_version ?? '',
    notify: fields.notify ?? '',
  };
}

/** The Zealot upload (PRODUCT §3): a package streamed to storage, or a finished resumable upload named by `upload_id`. */
export const uploadOperations = [
  operation({
    method: 'post',
    path: '/api/apps/upload',
    operationId: 'uploadRelease',
    tag: 'Releases',
    summary: 'Upload a build',
    scopes: UPLOAD,
    // The token may be a form field, before or after the file: read by the handler as the body streams.
    caller: 'handler',
    streams: true,
    params: {},
    responses: { '201': ok('The release, with its app, scheme and channel', { type: 'object', allOf: [ref('Release')], required: ['app', 'scheme', 'channel'] }), ...errors(...UPLOAD_WITH_TOKEN) },
    openApi: {
      description:
        'Streams the package to storage; the type is detected from the content. Without `channel_key`, the app (by name), an `Adhoc` scheme and a channel named after the platform are found or created.',
      requestBody: uploadBody(
        {
          channel_key: str('Empty or absent: app, scheme and channel are created.'),
          name: str('Overrides the parsed app name.'),
          password: str("Sets the channel's visit password; empty clears it."),
          release_type: str(),
          source: str('Default `api`.'),
          changelog: str('A JSON array of ChangelogEntry, or plain text (one entry per line): any text that is not a JSON array of objects (`2024`, `true`, an object) is plain text. At most 6 KiB.'),
          branch: str('A leading `origin/` is removed.'),
          git_commit: str(),
          ci_url: str(),
          custom_fields: str('A JSON array of CustomField; entries that are not objects (the fastlane plugin sends `["[]"]` by default) are dropped. At most 4 KiB.'),
          release_version: str('Required for a file of an unknown type.'),
          build_version: str('Required for a file of an unknown type.'),
          notify: str("`false` (or 0, no): no tester of the channel's groups is e-mailed of this build; default `true`."),
        },
        [],
        'multipart/form-data; `token` and `channel_key` before the file let the gateway refuse before storing anything. A `token` after the file is taken too (as `curl -F file=@app.apk -F token=…` sends it): the file is then held only up to UPLOAD_MAX_BYTES_BEFORE_TOKEN (413 past it) and removed unless the token is good (401). One `file` part only (a second is a 422). Each text field has a byte limit (name, branch, password, versions 255; release_type, source 64; git_commit 128; ci_url 2,048; 422 past it, before the file is stored when the field comes first).',
      ),
    },
    async handle(call) {
      const { clients, files, req, res } = call;
      lingerAfterEarlyResponse(req, res);
      if (!isMultipart(req)) {
        const body = (req.body ?? {}) as Record<string, string>;
        if (body.upload_id !== undefined) return finishResumable(call, body);
        await checkBeforeStoring(clients, req, body);
        throw InvalidArgument.field('file', "can't be blank: send the package as multipart/form-data");
      }
      const upload = await receiveCheckedUpload(call, { keyPrefix: 'packages', kind: 'package', check: (fields) => checkBeforeStoring(clients, req, fields) });
      if (!upload.file) {
        if (upload.fields.upload_id !== undefined) return finishResumable(call, upload.fields);
        await checkBeforeStoring(clients, req, upload.fields);
        throw InvalidArgument.field('file', "can't be blank");
      }
      const { objectKey, size, sha256, fileName } = upload.file;
      try {
        const fields = readTextFields(upload.fields, UPLOAD_FIELDS);
        const release = await clients.releases.createRelease(
          { ...releaseFields(req, fields), channelKey: fields.channel_key?.trim() ?? '', objectKey, size, fileName, sha256 },
          { deadline: files.uploadDeadlineMs },
        );
        await answerCreated(call, release);
      } catch (err) {
        // Only a refusal says no release was recorded. After a deadline or a releases process
        // that died mid-call the release may exist and need this file: the orphan janitor of
        // releases removes it later if no release refers to it.
        if (isRefusal(err)) await files.storage.delete(objectKey).catch(() => undefined);
        throw err;
      }
    },
  }),
];
