import fs from 'node:fs';
import path from 'node:path';
import { RunningHangar, apiClient, fixturesDir, sharedHangar } from '@hangar/testing';

/**
 * What a build announced to many testers costs on repeat views: the icon never changes at its URL, so it carries a year's
 * `immutable` freshness; the QR code encodes the page's absolute URL, which
 * depends on the host the request names, so it is private, short-lived
 * and varies with those headers. Both carry an ETag, and a conditional request is
 * a 304 without a body.
 */
describe('install pages: validators on immutable content', () => {
  let hangar: RunningHangar;
  let releaseId: number;

  beforeAll(async () => {
    hangar = await sharedHangar();
    const api = apiClient(hangar.baseUrl);
    const apk = fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'));
    const up = await api('POST', '/api/apps/upload', { form: { token: hangar.adminToken }, files: { file: { data: apk, fileName: 'android.apk' } } });
    if (up.status !== 201) throw new Error(`upload answered ${up.status}: ${up.text}`);
    releaseId = up.body.id;
  }, 180_000);

  afterAll(async () => {
    await hangar?.stop();
  });

  it.each([
    ['icon', () => `/api/releases/${releaseId}/icon`, 'image/png', 'public, max-age=31536000, immutable'],
    ['QR code', () => `/api/releases/${releaseId}/qrcode?size=300`, 'image/png', 'private, max-age=3600'],
  ])('when the %s is fetched twice, then the second time, with its ETag, is a 304 with no body', async (_what, url, type, cacheControl) => {
    const first = await fetch(`${hangar.baseUrl}${url()}`);
    const body = Buffer.from(await first.arrayBuffer());
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain(type);
    expect(body.subarray(1, 4).toString()).toBe('PNG');
    expect(first.headers.get('cache-control')).toBe(cacheControl);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);

    const again = await fetch(`${hangar.baseUrl}${url()}`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);

    const same = await fetch(`${hangar.baseUrl}${url()}`);
    expect(Buffer.from(await same.arrayBuffer()).equals(body)).toBe(true);
    expect(same.headers.get('etag')).toBe(etag);
  });

  it('when the QR code is fetched, then no shared cache keeps it for every host: private, and it varies with the host headers', async () => {
    const res = await fetch(`${hangar.baseUrl}/api/releases/${releaseId}/qrcode`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).not.toMatch(/public|immutable/);
    expect(res.headers.get('vary')).toMatch(/X-Forwarded-Host/i);
    expect(res.headers.get('vary')).toMatch(/\bHost\b/i);
  });

  it('when the QR code is asked for at another size, then it has another ETag', async () => {
    const small = await fetch(`${hangar.baseUrl}/api/releases/${releaseId}/qrcode?size=200`);
    const large = await fetch(`${hangar.baseUrl}/api/releases/${releaseId}/qrcode?size=400`);
    expect(small.headers.get('etag')).not.toBe(large.headers.get('etag'));
  });

  it('when the release is deleted, then its icon and QR code are 404 (a stale ETag gets no 304)', async () => {
    const icon = await fetch(`${hangar.baseUrl}/api/releases/${releaseId}/icon`);
    const etag = icon.headers.get('etag')!;
    const api = apiClient(hangar.baseUrl);
    expect((await api('DELETE', `/api/releases/${releaseId}`, { token: hangar.adminToken })).status).toBe(200);
    expect((await fetch(`${hangar.baseUrl}/api/releases/${releaseId}/icon`, { headers: { 'if-none-match': etag } })).status).toBe(404);
    expect((await fetch(`${hangar.baseUrl}/api/releases/${releaseId}/qrcode`)).status).toBe(404);
  });
});
