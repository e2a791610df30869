import type { StreamedUpload } from '../../http/streamed-upload';
import { readToken } from '../../http/authenticate.middleware';
import { readSessionCookie } from '../../http/session-cookie';
import { beforeTokenLimit, receiveUpload } from '../../http/streamed-upload';
import type { CallContext } from '../../operations/declare';

export interface CheckedUploadOptions {
  keyPrefix: string;
  kind: 'package' | 'debug_file';
  /** The token, the channel and the right to write to it, from the form's fields. */
  check(fields: Record<string, string>): Promise<void>;
}

/**
 * A multipart upload streamed into storage once `check` passes on the fields sent before the
 * file (Zealot clients send `token` and `channel_key` first). With no credential yet — a `token`
 * may follow the file, as Zealot allows (`curl -F file=@… -F token=…`) — the file is stored up to
 * UPLOAD_MAX_BYTES_BEFORE_TOKEN, checked once the form is read, and removed if refused. A form
 * without a file is the caller's to judge.
 */
export async function receiveCheckedUpload({ files, req }: CallContext, { keyPrefix, kind, check }: CheckedUploadOptions): Promise<StreamedUpload> {
  const upload = await receiveUpload(req, {
    storage: files.storage,
    maxBytes: files.maxUploadBytes,
    keyPrefix,
    onBytes: (bytes) => files.onUploadBytes?.(kind, bytes),
    beforeFile: async (fields) => {
      if (!readToken(req) && fields.token === undefined && !readSessionCookie(req)) return beforeTokenLimit(files.maxBytesBeforeToken);
      await check(fields);
    },
  });
  if (upload.file?.beforeToken) {
    try {
      await check(upload.fields);
    } catch (err) {
      await files.storage.delete(upload.file.objectKey).catch(() => undefined);
      throw err;
    }
  }
  return upload;
}
