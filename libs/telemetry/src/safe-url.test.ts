import { RedactingSpanProcessor, UNMATCHED_PATH, routeTemplateOf, withoutQuery } from './safe-url';

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

describe('RedactingSpanProcessor', () => {
  it('when a span carries credentials in its URL attributes, exception or status, then the exported span does not', async () => {
    const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new RedactingSpanProcessor(), new SimpleSpanProcessor(exporter)] });
    const secret = 'hgr_span_secret';
    const span = provider.getTracer('t').startSpan('GET');
    span.setAttributes({
      'url.full': `http://h:1/channels/${secret}?a=1`,
      'http.url': `http://h:1/x?token[a]=${secret}`,
      'url.path': `/symbols/${secret}/a.pdb/G/a.pdb`,
      'http.target': `/x?a=1;token=${secret}`,
      'url.query': `token%5Bx%5D=${secret}`,
      'http.route': '/debuginfod/:credential/buildid/:build_id/:kind',
    });
    span.recordException(new Error(`GET /debuginfod/${secret}/buildid/x/debuginfo failed`));
    span.setStatus({ code: 2, message: `fetching /channels/${secret}/unlock` });
    span.end();
    await provider.forceFlush();
    const [exported] = exporter.getFinishedSpans();
    expect(JSON.stringify({ attributes: exported!.attributes, events: exported!.events, status: exported!.status })).not.toContain(secret);
    expect(exported!.attributes['http.route']).toBe('/debuginfod/:credential/buildid/:build_id/:kind');
    await provider.shutdown();
  });

  it('when url.path is the route template, then it is kept as the router named it', async () => {
    const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new RedactingSpanProcessor(), new SimpleSpanProcessor(exporter)] });
    const route = '/channels/:slug';
    provider.getTracer('t').startSpan('GET', { attributes: { 'url.path': route, 'http.route': route } }).end();
    expect(exporter.getFinishedSpans()[0]!.attributes['url.path']).toBe(route);
    await provider.shutdown();
  });
});
