import { Request, Response, Router } from 'express';
import { InvalidArgument, NotFound, isRefusal } from '@hangar/errors';
import { oversizedReleaseFields } from '@hangar/release-shape';
import type { releases } from '@hangar/proto';
import type { ObjectStorage } from '@hangar/storage';
import { debugFilesOfReleases, linksIfAvailable } from '../clients/build-links';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf, currentUser, authenticateTokenOrSession, identifyIfToken, readToken } from '../http/authenticate.middleware';
import { publicBaseUrl } from '../http/base-url';
import { parseId, queryText, readTextFields, requiredQuery } from '../http/input';
import { parsePage, setPageHeaders } from '../http/pagination';
import { readSessionCookie } from '../http/session-cookie';
import { beforeTokenLimit, lingerAfterEarlyResponse, receiveUpload } from '../http/streamed-upload';
import { presentRelease, presentVersionList } from '../presenters/release.presenter';
import { DEFAULT_ICON_SVG } from '../presenters/default-icon';
import { ImmutableBytes, answeredNotModified } from '../install/immutable-bytes';
import { finishUpload } from '../uploads/finish-upload';
import type { ResumableUploads } from '../uploads/resumable-uploads';

export interface ReleasesRouteOptions {
  storage: ObjectStorage;
  maxUploadBytes: number;
  uploadDeadlineMs: number;
  downloadRedirect: boolean;
  publicBaseUrl?: string;
  /** Resumable uploads, finished by `upload_id` in place of `file`. */
  uploads?: ResumableUploads;
  /** How long a presigned part URL of a direct upload is good for (default a day). */
  uploadUrlTtlMs?: number;
  /** Bytes of upload bodies as they arrive (hangar_upload_bytes_total). */
  onUploadBytes?: (kind: 'package' | 'debug_file', bytes: number) => void;
  /**
   * Largest file stored before its sender is known: a `token` field after the file part
   * (`curl -F file=@app.apk -F token=…`, which Zealot takes). UPLOAD_MAX_BYTES_BEFORE_TOKEN.
   */
  maxBytesBeforeToken?: number;
}

const UPLOAD_FIELDS = [
  'channel_key', 'name', 'password', 'release_type', 'source', 'changelog', 'branch', 'git_commit', 'ci_url',
  'custom_fields', 'release_version', 'build_version', 'notify',
] as const;

const isMultipart = (req: Request) => /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');

/** Upload, version queries and the icon of releases (PRODUCT §3–4); reading, editing and deleting one are declared operations (features/releases/). */
export function releasesRoutes(clients: ServiceClients, options: ReleasesRouteOptions): Router {
  const router = Router();
  const base = (req: Request) => publicBaseUrl(req, options.publicBaseUrl);
  const zone = (req: Request) => req.user?.timezone;

  // A token and a known channel are checked before a byte is stored: from
  // the header or query, or from form fields sent before the file part
  // (Zealot clients send `token` and `channel_key` first).
  // The fields are read as every field is (text, no NUL): a key that cannot be looked up is a 422 here.
  async function checkBeforeStoring(req: Request, raw: Record<string, unknown>): Promise<void> {
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

  /** Every field as for a file, with the package already stored by a resumable upload. */
  async function finishResumable(req: Request, res: Response, body: Record<string, unknown>): Promise<void> {
    const fields = readTextFields(body, [...UPLOAD_FIELDS, 'upload_id', 'sha256', 'token'] as const);
    await checkBeforeStoring(req, { token: fields.token ?? '', channel_key: fields.channel_key ?? '' });
    if (!options.uploads) throw InvalidArgument.field('upload_id', 'resumable uploads are not enabled on this server');
    const { result } = await finishUpload(
      { ownerId: currentUser(req).id, purpose: 'package', uploadId: fields.upload_id!.trim(), ...(fields.sha256 ? { sha256: fields.sha256.trim() } : {}), waitMs: options.uploadDeadlineMs },
      options.uploads,
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
            { deadline: options.uploadDeadlineMs },
          );
          return { id: release.id, result: release };
        },
        existing: (id) => clients.releases.getRelease({ id }),
      },
    );
    const files = await linksIfAvailable(debugFilesOfReleases(clients, [result]));
    res.status(201).json(presentRelease(result, files?.get(result.id), base(req), zone(req)));
  }

  const lateToken = beforeTokenLimit(options.maxBytesBeforeToken);

  router.post('/api/apps/upload', async (req, res) => {
    lingerAfterEarlyResponse(req, res);
    if (!isMultipart(req)) {
      const body = (req.body ?? {}) as Record<string, string>;
      if (body.upload_id !== undefined) return finishResumable(req, res, body);
      await checkBeforeStoring(req, body);
      throw InvalidArgument.field('file', "can't be blank: send the package as multipart/form-data");
    }
    const upload = await receiveUpload(req, {
      storage: options.storage,
      maxBytes: options.maxUploadBytes,
      keyPrefix: 'packages',
      onBytes: (bytes) => options.onUploadBytes?.('package', bytes),
      beforeFile: async (fields) => {
        // No token yet (it may follow the file, as Zealot allows): the file is stored up to a much
        // smaller limit and removed unless the token that comes turns out good.
        if (!readToken(req) && fields.token === undefined && !readSessionCookie(req)) return lateToken;
        await checkBeforeStoring(req, fields);
      },
    });
    if (!upload.file) {
      if (upload.fields.upload_id !== undefined) return finishResumable(req, res, upload.fields);
      await checkBeforeStoring(req, upload.fields);
      throw InvalidArgument.field('file', "can't be blank");
    }
    const { objectKey, size, sha256, fileName } = upload.file;
    if (upload.file.beforeToken) {
      try {
        await checkBeforeStoring(req, upload.fields);
      } catch (err) {
        await options.storage.delete(objectKey).catch(() => undefined);
        throw err;
      }
    }
    try {
      const fields = readTextFields(upload.fields, UPLOAD_FIELDS);
      const release = await clients.releases.createRelease(
        { ...releaseFields(req, fields), channelKey: fields.channel_key?.trim() ?? '', objectKey, size, fileName, sha256 },
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
    const list = await clients.releases.listVersions({
      channelKey: requiredQuery(req, 'channel_key'),
      page,
      filter: { releaseVersion: queryText(req, 'release_version') ?? '', branch: queryText(req, 'branch') ?? '', gitCommit: queryText(req, 'git_commit') ?? '' },
    });
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
