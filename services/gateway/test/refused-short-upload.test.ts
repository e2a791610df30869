import { PassThrough } from 'node:stream';
import type { Request } from 'express';
import { ObjectStorage } from '@hangar/storage';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { receiveUpload } from '../src/http/streamed-upload';

const BOUNDARY = 'short-upload-boundary';

/**
 * Found by the hostile sweep over every route (tests/e2e/hostile-routes.test.ts): a
 * teardown whose whole file is shorter than the bytes its check looks at, and fails that check,
 * ended the gateway — the check's stream is then a copy of those bytes, and the refusal destroyed
 * it with an error nobody listened to ("Error: upload abandoned", uncaught).
 */
describe('receiveUpload refusing a file shorter than its head check', () => {
  const storage = new ObjectStorage({ ...testInfrastructure().s3, bucket: uniqueName('gateway-short'), partSize: 5 * 1024 * 1024, partConcurrency: 2 });
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);

  beforeAll(async () => {
    await storage.ensureBucket();
    process.on('uncaughtException', onUncaught);
  });
  afterAll(() => {
    process.off('uncaughtException', onUncaught);
  });

  it('when its first bytes fail the check, then it is refused and nothing is thrown outside the request', async () => {
    const req = new PassThrough() as PassThrough & Request;
    Object.assign(req, { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } });
    const check = { bytes: 4096, check: () => { throw new Error('not a package'); } };
    const received = receiveUpload(req, { storage, maxBytes: 1024 * 1024, keyPrefix: 'teardowns', checkHead: check });
    req.end(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="noise.ipa"\r\n\r\n${'z'.repeat(300)}\r\n--${BOUNDARY}--\r\n`));

    await expect(received).rejects.toThrow('not a package');
    // The destroyed stream's 'error' is emitted on a later turn of the event loop: let those turns pass.
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(uncaught.map((err) => String(err))).toEqual([]);
  });
});
