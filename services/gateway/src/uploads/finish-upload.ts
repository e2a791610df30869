import { InvalidArgument, isRefusal } from '@hangar/errors';
import type { ResumableUploads } from './resumable-uploads';
import type { UploadPurpose, UploadRecord } from './upload-records';

export interface FinishRequest {
  ownerId: number;
  purpose: UploadPurpose;
  uploadId: string;
  /** The client's SHA-256 of the whole file (hex), when it sent one. */
  sha256?: string;
  /** How long a retry waits for a finishing call already running. */
  waitMs: number;
}

export interface Finishing<T> {
  /** Makes the build from the complete upload; returns it and its id. */
  make(record: UploadRecord): Promise<{ id: number; result: T }>;
  /** The build an earlier finishing call made, for a retry. */
  existing(id: number): Promise<T>;
}

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/**
 * `upload_id` in place of `file`: the complete resumable upload becomes exactly one build,
 * however often the call is retried. The server's SHA-256 of the bytes it received must
 * match the client's when the client sends one; if not, the upload is thrown away.
 */
export async function finishUpload<T>(request: FinishRequest, uploads: ResumableUploads, finishing: Finishing<T>): Promise<{ result: T; record?: UploadRecord }> {
  if (request.sha256 !== undefined && !SHA256_HEX.test(request.sha256)) throw InvalidArgument.field('sha256', 'must be 64 hexadecimal digits');
  const claim = await uploads.claimFinish(request.uploadId, request.ownerId, request.purpose, request.waitMs);
  if ('done' in claim) {
    const id = claim.done.releaseId ?? claim.done.debugFileId!;
    return { result: await finishing.existing(id) };
  }
  const record = claim.claimed.record;
  if (request.sha256 && request.sha256.toLowerCase() !== record.sha256) {
    await uploads.discard(claim.claimed);
    throw InvalidArgument.field('sha256', `does not match the ${record.length} bytes received (their SHA-256 is ${record.sha256}); the upload was discarded`);
  }
  let made: { id: number; result: T };
  try {
    made = await finishing.make(record);
  } catch (err) {
    // A refusal made nothing: the upload may be finished again. Any other failure may have made
    // the build: the claim stays, and a retry waits it out before trying again.
    if (isRefusal(err)) await uploads.releaseClaim(claim.claimed);
    throw err;
  }
  await uploads.recordFinished(claim.claimed, request.purpose === 'package' ? { releaseId: made.id } : { debugFileId: made.id });
  return { result: made.result, record };
}
