import type { Response } from 'express';
import type { ObjectStorage } from '@hangar/storage';
import type { CachedUpdateChecks } from '../../clients/cached-update-checks';
import type { RecentlyRefused } from '../../limits/refused-addresses';
import type { ResumableUploads } from '../../uploads/resumable-uploads';

/** The gateway's settings for what moves files: uploads, teardowns, downloads, debug files, update checks. */
export interface StoredFiles {
  storage: ObjectStorage;
  maxUploadBytes: number;
  uploadDeadlineMs: number;
  downloadRedirect: boolean;
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
  /** Update checks answered from memory while unchanged; absent: each asks the releases service. */
  updateChecks?: CachedUpdateChecks;
  /**
   * Addresses the channel-key limit refused lately: their checks skip the held answers and ask
   * through the limited client, which answers 429 while the limit holds (limits/refused-addresses.ts).
   */
  refused?: RecentlyRefused;
}

/** A file in storage as a download answers it: where it is, and what to call it. */
export interface StoredDownload {
  /** A short-lived presigned URL of the object. */
  url: string;
  objectKey: string;
  size: number;
  fileName: string;
  contentType: string;
}

/**
 * A 302 to the presigned storage URL, or — when clients cannot reach the
 * storage (DOWNLOAD_REDIRECT=false) — the bytes streamed through the gateway.
 */
export async function sendStoredFile(res: Response, download: StoredDownload, files: Pick<StoredFiles, 'downloadRedirect' | 'storage'>): Promise<void> {
  if (files.downloadRedirect) {
    res.redirect(302, download.url);
    return;
  }
  const stream = await files.storage.getStream(download.objectKey);
  res.setHeader('Content-Type', download.contentType);
  if (download.size) res.setHeader('Content-Length', String(download.size));
  if (download.fileName) res.attachment(download.fileName);
  stream.pipe(res);
}
