import { UNMATCHED_PATH, routeTemplateOf, withoutQuery } from './safe-url';

describe('span-safe URLs', () => {
  it('when a URL has a query or fragment, then only what precedes it is kept', () => {
    expect(withoutQuery('/api/apps/upload?token=hgr_secret&x=1')).toBe('/api/apps/upload');
    expect(withoutQuery('/bucket/key?X-Amz-Signature=abc')).toBe('/bucket/key');
    expect(withoutQuery('/install#password=pw')).toBe('/install');
    expect(withoutQuery('/plain')).toBe('/plain');
  });

  it('when an express route matched, then its template (not the credential in the path) is what a span records', () => {
    const req = { url: '/debuginfod/hgr_secret/buildid/ab/debuginfo', baseUrl: '', route: { path: '/debuginfod/:credential/buildid/:build_id/:kind' } };
    expect(routeTemplateOf(req)).toBe('/debuginfod/:credential/buildid/:build_id/:kind');
    expect(routeTemplateOf({ baseUrl: '/api', route: { path: '/apps/:id' } })).toBe('/api/apps/:id');
    expect(routeTemplateOf({ url: '/anything/hgr_secret' })).toBeUndefined();
    expect(UNMATCHED_PATH).not.toContain('/');
  });
});
