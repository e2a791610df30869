import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ResumeStore, resumeFingerprint } from './resume-store';

describe('resume store', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-cli-resume-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const sha = 'a'.repeat(64);
  const stored = (parallelUploadUrls: string[]) => ({ size: 10, metadata: { filename: 'a.apk' }, creationTime: 'now', urlStorageKey: '', uploadUrl: null, parallelUploadUrls });

  it('when the content, size or server differ, then the fingerprint differs; the same three give the same one', () => {
    const base = resumeFingerprint(sha, 10, 'http://h/api/uploads');
    expect(resumeFingerprint(sha, 10, 'http://h/api/uploads')).toBe(base);
    expect(new Set([base, resumeFingerprint('b'.repeat(64), 10, 'http://h/api/uploads'), resumeFingerprint(sha, 11, 'http://h/api/uploads'), resumeFingerprint(sha, 10, 'http://other/api/uploads')]).size).toBe(4);
  });

  it('when an upload is stored, then a second store on the same folder (a new process) finds it by fingerprint only', async () => {
    const fp = resumeFingerprint(sha, 10, 'http://h/api/uploads');
    const key = await new ResumeStore(dir).addUpload(fp, stored(['http://h/api/uploads/p1', 'http://h/api/uploads/p2']));
    const again = new ResumeStore(dir);
    expect(await again.findUploadsByFingerprint(fp)).toEqual([{ ...stored(['http://h/api/uploads/p1', 'http://h/api/uploads/p2']), urlStorageKey: key }]);
    expect(await again.findUploadsByFingerprint(resumeFingerprint(sha, 10, 'http://other/api/uploads'))).toEqual([]);
    expect(await again.findAllUploads()).toHaveLength(1);
    expect(fs.statSync(again.fileOf(fp)).mode & 0o777).toBe(0o600);
  });

  it('when a newer upload of the same bytes is stored, then it replaces the older one', async () => {
    const store = new ResumeStore(dir);
    const fp = resumeFingerprint(sha, 10, 'e');
    await store.addUpload(fp, stored(['old']));
    await store.addUpload(fp, stored(['new']));
    expect((await store.findUploadsByFingerprint(fp)).map((u) => u.parallelUploadUrls)).toEqual([['new']]);
  });

  it('when every byte was sent, then the upload id is kept until forgotten, even after tus removes its entry', async () => {
    const store = new ResumeStore(dir);
    const fp = resumeFingerprint(sha, 10, 'e');
    const key = await store.addUpload(fp, stored(['p']));
    store.markFinished(fp, 'final-123');
    await store.removeUpload(key);
    expect(await store.findUploadsByFingerprint(fp)).toEqual([]);
    expect(store.finishedUploadId(fp)).toBe('final-123');
    store.forget(fp);
    expect(store.finishedUploadId(fp)).toBeUndefined();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('when a state file is corrupt, then it counts as no state', async () => {
    const store = new ResumeStore(dir);
    const fp = resumeFingerprint(sha, 10, 'e');
    fs.writeFileSync(store.fileOf(fp), '{"fingerpr');
    expect(await store.findUploadsByFingerprint(fp)).toEqual([]);
    expect(store.finishedUploadId(fp)).toBeUndefined();
  });
});
