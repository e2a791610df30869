import fs from 'node:fs';
import path from 'node:path';
import { RunningHangar, fetchChecked, fixturesDir, startHangar, uniqueName } from '@hangar/testing';

/**
 * Where clients cannot reach the object storage (DOWNLOAD_REDIRECT=false),
 * the gateway streams the package itself instead of redirecting.
 */
describe('downloads streamed through the gateway', () => {
  let hangar: RunningHangar;

  beforeAll(async () => {
    hangar = await startHangar({ S3_BUCKET: uniqueName('e2e-streamed'), DOWNLOAD_REDIRECT: 'false' });
  });

  afterAll(async () => {
    await hangar?.stop();
  });

  it('when a build is downloaded, then the bytes come from the gateway with the app-version-build file name', async () => {
    const apk = fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'));
    const form = new FormData();
    form.append('token', hangar.adminToken);
    form.append('name', 'Streamed Demo');
    form.append('file', new Blob([apk]), 'android.apk');
    const uploaded = (await (await fetchChecked(hangar.baseUrl, `${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form })).json()) as { id: number };

    const res = await fetchChecked(hangar.baseUrl, `${hangar.baseUrl}/api/releases/${uploaded.id}/download`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('Streamed_Demo-1.2.3-5.apk');
    expect(Number(res.headers.get('content-length'))).toBe(apk.length);
    expect(Buffer.from(await res.arrayBuffer()).equals(apk)).toBe(true);
  });
});
