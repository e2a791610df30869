import type { apps, debugFiles } from '@hangar/proto';
import type { DebugFileDocument } from '../data/debug-file.model';
import type { DebugFilesDeps } from '../domain/deps';
import { deleteDebugFile, findDownload, getDebugFile, listDebugFiles } from '../domain/manage-debug-files';
import { findSymbolFile } from '../domain/find-symbol-file';
import { listBuildDebugFiles } from '../domain/build-debug-files';
import { retraceStackTrace } from '../domain/retrace-stack-trace';
import { replaceDebugFile, uploadDebugFile } from '../domain/upload-debug-file';

const pageOf = (page?: { page: number; perPage: number }) => ({
  page: Math.max(1, page?.page || 1),
  perPage: Math.min(100, Math.max(1, page?.perPage || 25)),
});

/** Thin edge: proto in, use case, proto out. Errors map in the gRPC middleware. */
export function debugFilesHandlers(deps: DebugFilesDeps): debugFiles.DebugFilesServiceImplementation {
  return {
    async createDebugFile(req) {
      const { file, context } = await uploadDebugFile(deps, req);
      return toDebugFile(file, context);
    },
    async getDebugFile(req) {
      const { file, context } = await getDebugFile(deps, req);
      return toDebugFile(file, context);
    },
    async listDebugFiles(req) {
      const { files, total, context } = await listDebugFiles(deps, req, pageOf(req.page));
      return { debugFiles: files.map((f) => toDebugFile(f, context)), total };
    },
    async updateDebugFile(req) {
      const { file, context } = await replaceDebugFile(deps, req);
      return toDebugFile(file, context);
    },
    async deleteDebugFile(req) {
      await deleteDebugFile(deps, req.actor, req.channelKey, req.id);
      return {};
    },
    async findDownload(req) {
      return findDownload(deps, req);
    },
    async findSymbolFile(req) {
      return findSymbolFile(deps, req);
    },
    async retrace(req, context) {
      // The call's signal aborts when the caller's deadline passes or it goes away: the mapping stops streaming.
      return retraceStackTrace(deps, req, context.signal);
    },
    async listBuildDebugFiles(req) {
      const builds = await listBuildDebugFiles(deps, req.builds);
      return { builds: builds.map(({ build, files }) => ({ build, debugFiles: files.map((f) => toDebugFile(f)) })) };
    },
  };
}

/** The app's current name (it may have been renamed since the upload). */
export function toDebugFile(f: DebugFileDocument, context?: apps.ChannelContext): debugFiles.DebugFile {
  const createdAtMs = f.uploadedAt.getTime();
  return {
    id: f._id,
    appId: f.appId,
    channelId: f.channelId,
    appName: context?.app?.name ?? f.appName,
    deviceType: f.deviceType,
    kind: f.kind,
    fileName: f.fileName,
    releaseVersion: f.releaseVersion,
    buildVersion: f.buildVersion,
    bundleId: f.bundleId,
    size: f.size,
    checksum: f.checksum,
    metadata: f.entries.map((e) => ({
      id: e.id,
      debugFileId: f._id,
      uuid: e.uuid,
      type: e.type,
      object: e.object,
      dataJson: e.dataJson,
      size: e.size,
      // Rows are made with the archive they describe.
      createdAtMs,
      updatedAtMs: createdAtMs,
    })),
    createdAtMs: f.createdAt.getTime(),
    updatedAtMs: f.updatedAt.getTime(),
  };
}
