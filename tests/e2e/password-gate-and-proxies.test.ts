import fs from 'node:fs';
import path from 'node:path';
import jsQR from 'jsqr';
import plist from 'plist';
import { PNG } from 'pngjs';
import { ApiClient, ApiResponse, RunningGateway, RunningHangar, apiClient, fixturesDir, startGatewayReplica, startHangar, uniqueName } from '@hangar/testing';

const UNLOCK_MAX_FAILURES = 5;

/** Everything a response shows: status line, every header, the body. */
function shown(res: ApiResponse): string {
  return `${res.status}\n${[...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${res.text}`;
}

/**
 * Trust at the edges: the password gate holds — no page a visitor without
 * the password can reach names the protected channel's key (the credential of its
 * API), and the gate unlocks by release id — and X-Forwarded-* are believed only
 * from TRUSTED_PROXIES (none by default): limits, URLs and QR codes use the real
 * peer and the request's own Host otherwise. Install pages send a CSP.
 */
describe('the password gate and trusted proxies', () => {
  let hangar: RunningHangar;
  let api: ApiClient;
  let trustingGateway: RunningGateway;
  let viaProxy: ApiClient;

  async function upload(file: string, fields: Record<string, string>): Promise<ApiResponse> {
    const res = await api('POST', '/api/apps/upload', { token: hangar.adminToken, form: fields, files: { file: { data: fs.readFileSync(path.join(fixturesDir(), 'apps', file)), fileName: file } } });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.text}`);
    return res;
  }

  const wrongUnlock = (client: ApiClient, releaseId: number, headers: Record<string, string> = {}) =>
    client('POST', `/releases/${releaseId}/unlock`, { urlencoded: { password: 'not-it', next: `/releases/${releaseId}` }, headers });

  beforeAll(async () => {
    hangar = await startHangar({ UNLOCK_MAX_FAILURES: String(UNLOCK_MAX_FAILURES) });
    api = apiClient(hangar.baseUrl);
    // A gateway behind a proxy on loopback: the same services, TRUSTED_PROXIES set.
    trustingGateway = await startGatewayReplica(hangar, { TRUSTED_PROXIES: 'loopback' });
    viaProxy = apiClient(trustingGateway.baseUrl);
  }, 240_000);

  afterAll(async () => {
    await trustingGateway?.stop();
    await hangar?.stop();
  });

  describe('a protected channel', () => {
    let android: ApiResponse;
    let ios: ApiResponse;
    let key: string;

    beforeAll(async () => {
      android = await upload('android.apk', { name: uniqueName('Gate'), password: 'open-sesame' });
      key = android.body.channel.slug;
      ios = await upload('ipad.ipa', { name: uniqueName('Gate iOS'), password: 'open-sesame' });
    });

    it('when a visitor without the password opens the release page, QR code, manifest, download or unlock form, then no body, header or redirect contains the channel key', async () => {
      const id = android.body.id;
      const seen: ApiResponse[] = [];
      const page = await api('GET', `/releases/${id}`);
      expect(page.status).toBe(401);
      expect(page.text).toContain(`action="/releases/${id}/unlock"`);
      seen.push(page);
      seen.push(await api('GET', `/releases/${id}?t=forged`));
      seen.push(await api('GET', `/api/releases/${id}/qrcode`));
      seen.push(await api('GET', `/api/releases/${id}/download`));
      seen.push(await api('GET', `/api/releases/${ios.body.id}/manifest.plist`));
      seen.push(await api('GET', `/releases/${ios.body.id}`));
      // Wrong passwords up to the limit and past it, a next that is no local path, an open redirect tried.
      for (let i = 0; i < UNLOCK_MAX_FAILURES + 1; i++) seen.push(await wrongUnlock(api, id));
      seen.push(await api('POST', `/releases/${id}/unlock`, { urlencoded: { password: 'x', next: '//evil.example/' } }));
      seen.push(await api('POST', `/releases/999999999/unlock`, { urlencoded: { password: 'x' } }));
      expect(seen.map((r) => r.status)).toEqual([401, 401, 200, 401, 401, 401, 401, 401, 401, 401, 401, 429, 429, 404]);
      const qr = PNG.sync.read(Buffer.from(await (await fetch(`${hangar.baseUrl}/api/releases/${id}/qrcode`)).arrayBuffer()));
      const encoded = jsQR(new Uint8ClampedArray(qr.data), qr.width, qr.height)?.data;
      expect(encoded).toBe(`${hangar.baseUrl}/releases/${id}`);
      for (const res of seen) expect(shown(res)).not.toContain(key);
      expect(shown(seen[5]!)).not.toContain(ios.body.channel.slug);
    });

    it('when the release page form is posted with the right password, then the release unlocks by id and its page opens', async () => {
      const id = ios.body.id;
      const unlocked = await api('POST', `/releases/${id}/unlock`, { urlencoded: { password: 'open-sesame', next: `/releases/${id}` } });
      expect(unlocked.status).toBe(303);
      expect(unlocked.headers.get('location')).toBe(`/releases/${id}`);
      const cookie = unlocked.headers.getSetCookie().find((c) => c.startsWith('hangar_unlock_'))!;
      expect(cookie).toMatch(/HttpOnly/);
      const page = await api('GET', `/releases/${id}`, { headers: { cookie: cookie.split(';')[0]! } });
      expect(page.status).toBe(200);
      expect(page.text).toContain(ios.body.app_name);
      const manifest = await api('GET', `/api/releases/${id}/manifest.plist`, { headers: { cookie: cookie.split(';')[0]! } });
      expect(manifest.status).toBe(200);
      // Who has the key still unlocks by it.
      const byKey = await api('POST', `/channels/${ios.body.channel.slug}/unlock`, { urlencoded: { password: 'open-sesame' } });
      expect([byKey.status, byKey.headers.get('location')]).toEqual([303, `/channels/${ios.body.channel.slug}`]);
    });

    it('when install pages are answered, then they carry a CSP with frame-ancestors none, and X-Frame-Options DENY', async () => {
      const open = await upload('android.apk', { name: uniqueName('Open page') });
      for (const res of [await api('GET', `/releases/${open.body.id}`), await api('GET', `/releases/${android.body.id}`), await api('GET', `/channels/${open.body.channel.slug}`), await api('GET', '/releases/999999999')]) {
        const csp = res.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("default-src 'none'");
        expect(csp).not.toContain('unsafe-inline');
        expect(res.headers.get('x-frame-options')).toBe('DENY');
      }
    });
  });

  describe('X-Forwarded-* from a peer that is not a trusted proxy (the default)', () => {
    it('when each wrong visit password names another X-Forwarded-For, then the limit still counts the real peer and the right password is refused too', async () => {
      const release = await upload('android.apk', { name: uniqueName('Spoofed'), password: 'right-one' });
      const statuses: number[] = [];
      for (let i = 0; i < UNLOCK_MAX_FAILURES + 2; i++) statuses.push((await wrongUnlock(api, release.body.id, { 'x-forwarded-for': `198.51.100.${i + 1}` })).status);
      expect(statuses).toEqual([...Array(UNLOCK_MAX_FAILURES).fill(401), 429, 429]);
      const right = await api('POST', `/releases/${release.body.id}/unlock`, { urlencoded: { password: 'right-one' }, headers: { 'x-forwarded-for': '198.51.100.200' } });
      expect(right.status).toBe(429);
    });

    it('when X-Forwarded-Host and -Proto name another site, then release_url, install_url, the manifest and the QR code keep the request\'s own host', async () => {
      const ios = await upload('ipad.ipa', { name: uniqueName('Host') });
      const lie = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' };
      const found = await api('GET', `/api/apps/version_exist?channel_key=${ios.body.channel.slug}&bundle_id=com.icyleaf.bundle&release_version=1.0&build_version=1`, { headers: lie });
      expect(found.status).toBe(200);
      expect(found.body.release_url).toBe(`${hangar.baseUrl}/releases/${found.body.id}`);
      expect(shown(found)).not.toContain('evil.example');
      const manifest = await api('GET', `/api/releases/${ios.body.id}/manifest.plist`, { headers: lie });
      expect(manifest.status).toBe(200);
      expect(manifest.text).not.toContain('evil.example');
      const parsed = plist.parse(manifest.text) as { items: { assets: { url: string }[] }[] };
      for (const asset of parsed.items[0]!.assets) expect(asset.url.startsWith(`${hangar.baseUrl}/api/releases/`)).toBe(true);
      const page = await api('GET', `/releases/${ios.body.id}`, { headers: lie });
      expect(page.text).not.toContain('evil.example');
      const qr = await fetch(`${hangar.baseUrl}/api/releases/${ios.body.id}/qrcode`, { headers: lie });
      const png = PNG.sync.read(Buffer.from(await qr.arrayBuffer()));
      expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(`${hangar.baseUrl}/releases/${ios.body.id}`);
    });
  });

  describe('with TRUSTED_PROXIES naming the proxy', () => {
    it('when the proxy forwards different clients, then each is counted on its own and the host and scheme it forwards build the URLs', async () => {
      const release = await upload('android.apk', { name: uniqueName('Proxied'), password: 'right-one' });
      const statuses: number[] = [];
      for (let i = 0; i < UNLOCK_MAX_FAILURES + 1; i++) statuses.push((await wrongUnlock(viaProxy, release.body.id, { 'x-forwarded-for': '203.0.113.50' })).status);
      expect(statuses).toEqual([...Array(UNLOCK_MAX_FAILURES).fill(401), 429]);
      // Another client behind the same proxy is not held back by the first one's tries.
      const other = await viaProxy('POST', `/releases/${release.body.id}/unlock`, { urlencoded: { password: 'right-one' }, headers: { 'x-forwarded-for': '203.0.113.51' } });
      expect(other.status).toBe(303);

      const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'apps.example.com' };
      const found = await viaProxy('GET', `/api/apps/versions?channel_key=${release.body.channel.slug}`, { headers: forwarded });
      expect(found.body.releases[0].release_url).toBe(`https://apps.example.com/releases/${found.body.releases[0].id}`);
      expect(found.body.releases[0].install_url).toContain('https://apps.example.com/api/releases/');
    });
  });
});
