import { Writable } from 'node:stream';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createLogger } from './create-logger';
import { acceptRequestId, runWithContext } from './request-context';
import { redactUrl } from './redaction';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'test', destination }) };
}

describe('logger', () => {
  it('when a line is logged inside a request context, then it carries the request id', () => {
    const { lines, logger } = capture();
    runWithContext({ requestId: 'req-1' }, () => logger.info('inside'));
    logger.info('outside');
    expect(lines[0]).toMatchObject({ msg: 'inside', requestId: 'req-1', service: 'test' });
    expect(lines[1]).not.toHaveProperty('requestId');
  });

  it('when a line is logged inside an active span, then it carries that trace_id and span_id', async () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      const { lines, logger } = capture();
      const ids = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 };
      await context.with(trace.setSpan(context.active(), trace.wrapSpanContext(ids)), async () => {
        await new Promise((r) => setImmediate(r));
        logger.info('inside');
      });
      logger.info('outside');
      expect(lines[0]).toMatchObject({ msg: 'inside', trace_id: ids.traceId, span_id: ids.spanId });
      expect(lines[1]).not.toHaveProperty('trace_id');
    } finally {
      context.disable();
    }
  });

  it('when secrets are logged as fields, then their values are redacted', () => {
    const { lines, logger } = capture();
    logger.info({ token: 'hgr_secret', body: { password: 'pw', channel_key: 'ck' }, req: { headers: { authorization: 'Bearer x' } } }, 'x');
    const text = JSON.stringify(lines[0]);
    for (const secret of ['hgr_secret', '"pw"', '"ck"', 'Bearer x']) expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED]');
  });
});

describe('redactUrl', () => {
  it('when a URL has secret query parameters, then only their values are replaced', () => {
    expect(redactUrl('/api/apps?token=abc&page=2&channel_key=xyz&PASSWORD=p')).toBe(
      '/api/apps?token=[REDACTED]&page=2&channel_key=[REDACTED]&PASSWORD=[REDACTED]',
    );
    expect(redactUrl('/api/apps?%74oken=abc')).toBe('/api/apps?%74oken=[REDACTED]');
    expect(redactUrl('/version')).toBe('/version');
  });

  it("when an OpenID Connect callback is logged, then its authorization code is not", () => {
    expect(redactUrl('/api/sessions/oidc/callback?code=secret-code&state=s1')).toBe('/api/sessions/oidc/callback?code=[REDACTED]&state=s1');
  });
});

describe('acceptRequestId', () => {
  it('when the incoming id is sane it is kept, otherwise a new one is made', () => {
    expect(acceptRequestId('abc-123')).toBe('abc-123');
    expect(acceptRequestId('bad id with spaces')).toMatch(/^[0-9a-f-]{36}$/);
    expect(acceptRequestId('x'.repeat(200))).toMatch(/^[0-9a-f-]{36}$/);
    expect(acceptRequestId(undefined)).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('URLs in log lines', () => {
  it('when an error quoting a URL, or a url / path field, is logged, then the credentials in them are not', () => {
    const { lines, logger } = capture();
    const err = new Error('GET http://s3.local:9000/bucket/key?X-Amz-Signature=sig_secret failed for /debuginfod/hgr_path_secret/buildid/x/debuginfo');
    logger.error({ err, path: '/channels/key_secret', url: '/x?a=1;token=tok_secret' }, 'failed');
    const text = JSON.stringify(lines[0]);
    for (const secret of ['sig_secret', 'hgr_path_secret', 'key_secret', 'tok_secret']) expect(text).not.toContain(secret);
    expect(text).toContain('/debuginfod/[REDACTED]/buildid/x/debuginfo');
  });
});
