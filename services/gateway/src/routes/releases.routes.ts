import { Request, Response, Router } from 'express';
import { InvalidArgument, NotFound, Unauthenticated, isRefusal } from '@hangar/errors';
import type { releases } from '@hangar/proto';
import type { ObjectStorage } from '@hangar/storage';
import { debugFilesOfReleases, linksIfAvailable } from '../clients/build-links';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf, authenticate, currentUser, identifyIfToken, readToken } from '../http/authenticate.middleware';
import { publicBaseUrl } from '../http/base-url';
import { parseId, queryText, readTextFields } from '../http/input';
import { parsePage, setPageHeaders } from '../http/pagination';
import { lingerAfterEarlyResponse, receiveUpload } from '../http/streamed-upload';
import { presentRelease, presentVersionList } from '../presenters/release.presenter';
import { DEFAULT_ICON_SVG } from '../presenters/default-icon';
import { ImmutableBytes, answeredNotModified } from '../install/immutable-bytes';

export interface ReleasesRouteOptions {
  storage: ObjectStorage;
  maxUploadBytes: number;
  uploadDeadlineMs: number;
  downloadRedirect: boolean;
  publicBaseUrl?: string;
  /** Bytes of upload bodies as they arrive (hangar_upload_bytes_total). */
  onUploadBytes?: (kind: 'package' | 'debug_file', bytes: number) => void;
}

const UPLOAD_FIELDS = [
  'channel_key', 'name', 'password', 'release_type', 'source', 'changelog', 'branch', 'git_commit', 'ci_url',
  'custom_fields', 'release_version', 'build_version',
] as const;

const isMultipart = (req: Request) => /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');

/** Upload, version queries, edits and files of releases (PRODUCT §3–4). */
export function releasesRoutes(clients: ServiceClients, options: ReleasesRouteOptions): Router {
  const router = Router();
  const base = (req: Request) => publicBaseUrl(req, options.publicBaseUrl);
  const zone = (req: Request) => req.user?.timezone;

  // A token and a known channel are checked before a byte is stored: from
  // the header or query, or from form fields sent before the file part
  // (Zealot clients send `token` and `channel_key` first).
  async function checkBeforeStoring(req: Request, fields: Record<string, string>): Promise<void> {
    const token = readToken(req) ?? fields.token;
    if (!token) throw new Unauthenticated('Missing access token: send Authorization: Bearer <token>, ?token=, or a token field before the file');
    req.user = await clients.users.authenticate({ token });
    if (fields.channel_key) {
      const context = await clients.apps.resolveChannel({ channelKey: fields.channel_key, channelId: 0 });
      await clients.apps.checkPermission({ actor: actorOf(req), appId: context.app!.id, role: 'developer' });
    }
  }

  router.post('/api/apps/upload', async (req, res) => {
    lingerAfterEarlyResponse(req, res);
    if (!isMultipart(req)) {
      await checkBeforeStoring(req, (req.body ?? {}) as Record<string, string>);
      throw InvalidArgument.field('file', "can't be blank: send the package as multipart/form-data");
    }
    const upload = await receiveUpload(req, {
      storage: options.storage,
      maxBytes: options.maxUploadBytes,
      keyPrefix: 'packages',
      onBytes: (bytes) => options.onUploadBytes?.('package', bytes),
      beforeFile: (fields) => checkBeforeStoring(req, fields),
    });
    if (!upload.file) {
      await checkBeforeStoring(req, upload.fields);
      throw InvalidArgument.field('file', "can't be blank");
    }
    const { objectKey, size, fileName } = upload.file;
    try {
      const fields = readTextFields(upload.fields, UPLOAD_FIELDS);
      const release = await clients.releases.createRelease(
        {
          actor: actorOf(req),
          channelKey: fields.channel_key?.trim() ?? '',
          objectKey,
          size,
          fileName,
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
        },
        { deadline: options.uploadDeadlineMs },
      );
      const files = await linksIfAvailable(debugFilesOfReleases(clients, [release]));
      res.status(201).json(presentRelease(release, files?.get(release.id), base(req), zone(req)));
    } catch (err) {
      // Only a refusal says no release was recorded. After a deadline or a releases process
      // that died mid-call the release may exist and need this file: the orphan janitor of
      // releases removes it later if no release refers to it.
      if (isRefusal(err)) await options.storage.delete(objectKey).catch(() => undefined);
      throw err;
    }
  });

  router.get('/api/apps/versions', identifyIfToken(clients), async (req, res) => {
    const page = parsePage(req);
    const list = await clients.releases.listVersions({ channelKey: requiredQuery(req, 'channel_key'), page });
    setPageHeaders(req, res, page, list.total, base(req));
    res.json(presentVersionList(list, await linksIfAvailable(debugFilesOfReleases(clients, list.releases)), base(req), zone(req)));
  });

  router.get('/api/apps/latest', identifyIfToken(clients), async (req, res) => {
    const page = parsePage(req);
    const list = await clients.releases.latestReleases({
      channelKey: requiredQuery(req, 'channel_key'),
      releaseVersion: queryText(req, 'release_version') ?? '',
      buildVersion: queryText(req, 'build_version') ?? '',
      bundleId: queryText(req, 'bundle_id') ?? '',
      page,
    });
    setPageHeaders(req, res, page, list.total, base(req));
    res.json(presentVersionList(list, await linksIfAvailable(debugFilesOfReleases(clients, list.releases)), base(req), zone(req)));
  });

  router.get('/api/apps/version_exist', identifyIfToken(clients), async (req, res) => {
    const release = await clients.releases.versionExists({
      channelKey: requiredQuery(req, 'channel_key'),
      bundleId: queryText(req, 'bundle_id') ?? '',
      releaseVersion: queryText(req, 'release_version') ?? '',
      buildVersion: queryText(req, 'build_version') ?? '',
      gitCommit: queryText(req, 'git_commit') ?? '',
    });
    const files = await linksIfAvailable(debugFilesOfReleases(clients, [release]));
    res.json(presentRelease(release, files?.get(release.id), base(req), zone(req)));
  });

  router.put('/api/releases/:id', authenticate(clients), async (req, res) => {
    const id = parseId(req.params.id);
    const fields = readTextFields(req.body, ['changelog', 'custom_fields', 'release_version', 'build_version', 'branch', 'git_commit', 'ci_url', 'release_type'] as const);
    const release = await clients.releases.updateRelease({
      actor: actorOf(req),
      id,
      changelog: fields.changelog,
      customFields: fields.custom_fields,
      releaseVersion: fields.release_version,
      buildVersion: fields.build_version,
      branch: fields.branch,
      gitCommit: fields.git_commit,
      ciUrl: fields.ci_url,
      releaseType: fields.release_type,
    });
    const files = await linksIfAvailable(debugFilesOfReleases(clients, [release]));
    res.json(presentRelease(release, files?.get(release.id), base(req), currentUser(req).timezone));
  });

  router.delete('/api/releases/:id', authenticate(clients), async (req, res) => {
    await clients.releases.deleteRelease({ actor: actorOf(req), id: parseId(req.params.id) });
    res.json({ mesage: 'OK' });
  });

  // The icon's bytes, not a redirect: its storage key is unique to the upload, so the
  // answer at this URL never changes and is cached for a year (ETag: the key).
  const icons = new ImmutableBytes(32 * 1024 * 1024);
  router.get('/api/releases/:id/icon', async (req, res) => {
    const id = parseId(req.params.id);
    let download: releases.Download;
    try {
      download = await clients.releases.getDownload({ releaseId: id, kind: 'icon', expiresInSeconds: 60 });
    } catch (err) {
      if (!(err instanceof NotFound) || !/no icon/.test(err.message)) throw err;
      res.type('image/svg+xml').setHeader('Cache-Control', 'public, max-age=3600');
      res.send(DEFAULT_ICON_SVG);
      return;
    }
    if (answeredNotModified(req, res, `"${download.objectKey}"`)) return;
    const bytes = await icons.get(download.objectKey, async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of await options.storage.getStream(download.objectKey)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    });
    res.type('png').send(bytes);
  });

  const sendFile = (req: Request, res: Response, download: releases.Download) => sendDownload(req, res, download, options);

  return router;
}

/**
 * A 302 to the presigned storage URL, or — when clients cannot reach the
 * storage (DOWNLOAD_REDIRECT=false) — the bytes streamed through the gateway.
 */
export async function sendDownload(
  _req: Request,
  res: Response,
  download: releases.Download,
  options: Pick<ReleasesRouteOptions, 'downloadRedirect' | 'storage'>,
): Promise<void> {
  if (options.downloadRedirect) {
    res.redirect(302, download.url);
    return;
  }
  const stream = await options.storage.getStream(download.objectKey);
  res.setHeader('Content-Type', download.contentType);
  if (download.size) res.setHeader('Content-Length', String(download.size));
  if (download.fileName) res.attachment(download.fileName);
  stream.pipe(res);
}

function requiredQuery(req: Request, name: string): string {
  const value = queryText(req, name);
  if (!value?.trim()) throw InvalidArgument.field(name, "can't be blank");
  return value;
}
