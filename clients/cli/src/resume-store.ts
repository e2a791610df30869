import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PreviousUpload, UrlStorage } from 'tus-js-client';

/**
 * The same bytes sent to the same server resume; anything else starts anew.
 * Content, not path or mtime: a CI job that rebuilds the identical file, or a
 * rerun in another checkout, still finds what was already sent. The content is
 * known by a sample of it (`contentSample`), so sending need not wait for the
 * whole file's SHA-256; the finishing call's SHA-256 catches a sample that lied.
 */
export function resumeFingerprint(contentSample: string, size: number, endpoint: string): string {
  return `hangar-v2:${contentSample}:${size}:${endpoint}`;
}

/** A direct upload's presigned parts and which of them S3 already took. */
export interface DirectState {
  uploadId: string;
  expiresAt: string;
  parts: { part_number: number; offset: number; length: number; url: string }[];
  done: number[];
}

interface StateFile {
  fingerprint: string;
  upload?: Omit<PreviousUpload, 'urlStorageKey'>;
  direct?: DirectState;
  /** Set once every byte is on the server: a rerun goes straight to the finishing call. */
  finishedUploadId?: string;
  updatedAt: string;
}

/**
 * tus-js-client's URL storage, one small JSON file per fingerprint under the
 * user's cache dir, each replaced by rename so a process killed mid-write
 * leaves the old state or the new, never half of one.
 */
export class ResumeStore implements UrlStorage {
  constructor(private readonly dir: string) {}

  fileOf(fingerprint: string): string {
    return path.join(this.dir, `${createHash('sha256').update(fingerprint).digest('hex')}.json`);
  }

  private read(file: string): StateFile | undefined {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as StateFile;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      // A state file we cannot read only costs a fresh upload.
      if (err instanceof SyntaxError) return undefined;
      throw err;
    }
  }

  private write(state: StateFile): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileOf(state.fingerprint);
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 });
    fs.renameSync(temporary, file);
  }

  private keyOf(file: string): string {
    return path.basename(file, '.json');
  }

  private previous(file: string): PreviousUpload[] {
    const state = this.read(file);
    return state?.upload ? [{ ...state.upload, urlStorageKey: this.keyOf(file) }] : [];
  }

  async findAllUploads(): Promise<PreviousUpload[]> {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    return names.flatMap((n) => this.previous(path.join(this.dir, n)));
  }

  async findUploadsByFingerprint(fingerprint: string): Promise<PreviousUpload[]> {
    return this.previous(this.fileOf(fingerprint));
  }

  async removeUpload(urlStorageKey: string): Promise<void> {
    const file = path.join(this.dir, `${urlStorageKey}.json`);
    const state = this.read(file);
    if (!state) return;
    delete state.upload;
    if (state.finishedUploadId) this.write({ ...state, updatedAt: new Date().toISOString() });
    else fs.rmSync(file, { force: true });
  }

  async addUpload(fingerprint: string, upload: PreviousUpload): Promise<string> {
    const { urlStorageKey: _ignored, ...kept } = upload;
    // One upload per fingerprint: the newest is the one worth resuming.
    this.write({ fingerprint, upload: kept, updatedAt: new Date().toISOString() });
    return this.keyOf(this.fileOf(fingerprint));
  }

  directState(fingerprint: string): DirectState | undefined {
    return this.read(this.fileOf(fingerprint))?.direct;
  }

  saveDirect(fingerprint: string, direct: DirectState): void {
    const state = this.read(this.fileOf(fingerprint)) ?? { fingerprint, updatedAt: '' };
    this.write({ ...state, direct, updatedAt: new Date().toISOString() });
  }

  finishedUploadId(fingerprint: string): string | undefined {
    return this.read(this.fileOf(fingerprint))?.finishedUploadId;
  }

  markFinished(fingerprint: string, uploadId: string): void {
    const state = this.read(this.fileOf(fingerprint)) ?? { fingerprint, updatedAt: '' };
    this.write({ ...state, finishedUploadId: uploadId, updatedAt: new Date().toISOString() });
  }

  /** After the build exists (or the server refused it): nothing left to resume. */
  forget(fingerprint: string): void {
    fs.rmSync(this.fileOf(fingerprint), { force: true });
  }
}
