import { PayloadTooLarge, Unavailable } from '@hangar/errors';
import { ObjectStorage, contentDisposition, toStorageError } from './object-storage';

describe('contentDisposition', () => {
  it('when the file name is plain ASCII, then both forms carry it', () => {
    expect(contentDisposition('app-1.2.apk')).toBe(`attachment; filename="app-1.2.apk"; filename*=UTF-8''app-1.2.apk`);
  });

  it('when the file name has quotes, backslashes or non-ASCII letters, then the quoted form is made safe and the UTF-8 form keeps them', () => {
    const header = contentDisposition('Café "beta"\\1.ipa');

    expect(header).toContain('filename="Caf_ _beta__1.ipa"');
    expect(header).toContain(`filename*=UTF-8''${encodeURIComponent('Café "beta"\\1.ipa')}`);
  });
});

describe('toStorageError', () => {
  it('when the network fails, then it is Unavailable', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND']) {
      expect(toStorageError(Object.assign(new Error('x'), { code }))).toBeInstanceOf(Unavailable);
    }
  });

  it('when the network fails, then the socket error stays as the cause, for the log', () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(toStorageError(reset).cause).toBe(reset);
  });

  it('when it is a domain error or an S3 answer, then it passes through', () => {
    const tooLarge = new PayloadTooLarge('big');
    const s3 = Object.assign(new Error('Access Denied'), { code: 'AccessDenied' });

    expect(toStorageError(tooLarge)).toBe(tooLarge);
    expect(toStorageError(s3)).toBe(s3);
    expect(toStorageError('odd')).toEqual(new Error('odd'));
  });
});

describe('the part buffers of a process', () => {
  const storage = (extra: { uploadMemoryBytes?: number; partSize?: number } = {}) =>
    new ObjectStorage({ endpoint: 'http://127.0.0.1:9', accessKey: 'k', secretKey: 's', bucket: 'b', ...extra });

  it('when nothing is configured, then all uploads together hold at most four 8 MiB parts (32 MiB: the gateway stays near its rest under uploads)', () => {
    const { partPool } = storage();
    expect(partPool.partSize).toBe(8 * 1024 * 1024);
    expect(partPool.partSize * partPool.maxParts).toBe(32 * 1024 * 1024);
  });

  it('when a budget is configured, then it bounds them instead (at least one part)', () => {
    expect(storage({ uploadMemoryBytes: 96 * 1024 * 1024 }).partPool.maxParts).toBe(12);
    expect(storage({ uploadMemoryBytes: 1 }).partPool.maxParts).toBe(1);
  });
});
