import type { Express } from 'express';
import { OpenApiValidator } from '@hangar/testing';
import { createApp } from '../app';
import { LocalAttempts } from '../limits/local-attempts';
import type { ServiceClients } from '../clients/service-clients';
import { openApiDocument } from './openapi';

/** Every route express serves, as `METHOD /openapi/{template}`. */
function expressRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: any[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = String(layer.route.path).replace(/:([A-Za-z_]+)/g, '{$1}');
        for (const [method, on] of Object.entries(layer.route.methods as Record<string, boolean>)) if (on && method !== '_all') found.push(`${method.toUpperCase()} ${path}`);
      } else if (Array.isArray(layer.handle?.stack)) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as any).router.stack);
  return [...new Set(found)].sort();
}

function documentedRoutes(document: ReturnType<typeof openApiDocument>): string[] {
  const found: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'head', 'put', 'post', 'delete', 'patch'] as const) if (item[method]) found.push(`${method.toUpperCase()} ${path}`);
  }
  return found.sort();
}

describe('the OpenAPI document', () => {
  const document = openApiDocument('1.2.3');
  const app = createApp({
    clients: {} as ServiceClients,
    logger: { info() {}, warn() {}, error() {}, debug() {}, child() { return this; } } as never,
    versionInfo: { version: '1.2.3', vcs_ref: 'x', build_date: new Date(0).toISOString() },
    maxBodyBytes: 1024,
    // `uploads` mounts the resumable-upload routes (tus, direct): only their presence is compared here.
    releases: { storage: {} as never, maxUploadBytes: 1024, uploadDeadlineMs: 1000, downloadRedirect: true, uploads: {} as never },
    install: { secret: 'x'.repeat(32), unlockTtlSeconds: 3600, unlockAttempts: { counter: new LocalAttempts(), rule: { name: 'unlock', maxFailures: 5, windowMs: 600_000 } } },
    signInLimiter: {} as never,
  });

  it('when compiled with JSON Schema 2020-12 in strict mode, then every schema and reference resolves', () => {
    expect(() => new OpenApiValidator(document as never).compileAll()).not.toThrow();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.2.3');
  });

  it('when compared with the routes express serves, then each route is documented and each documented operation is served', () => {
    expect(documentedRoutes(document)).toEqual(expressRoutes(app));
  });

  it('when every operation is listed, then each has a unique operationId, a tag and a success or redirect response', () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of ['get', 'put', 'post', 'delete'] as const) {
        const operation = item[method];
        if (!operation) continue;
        expect({ path, method, duplicate: ids.has(operation.operationId) }).toEqual({ path, method, duplicate: false });
        ids.add(operation.operationId);
        expect(operation.tags.length).toBeGreaterThan(0);
        expect({ path, method, success: Object.keys(operation.responses).some((s) => /^[23]/.test(s)) }).toEqual({ path, method, success: true });
        for (const name of path.match(/\{[^}]+\}/g) ?? []) {
          const params = [...(item.parameters ?? []), ...(operation.parameters ?? [])] as { name?: string; in?: string }[];
          expect({ path, param: name, declared: params.some((p) => p.in === 'path' && `{${p.name}}` === name) }).toEqual({ path, param: name, declared: true });
        }
      }
    }
  });

  it('when a body has a field the document does not list, then the validator names it', () => {
    const validator = new OpenApiValidator(document as never);
    const headers = new Headers({ 'content-type': 'application/json; charset=utf-8' });
    expect(validator.problems('GET', '/version', { status: 200, headers, body: { version: '1', vcs_ref: 'x', build_date: 'y' } })).toEqual([]);
    expect(validator.problems('GET', '/version', { status: 200, headers, body: { version: '1', vcs_ref: 'x', build_date: 'y', extra: 1 } }).join('\n')).toMatch(/unexpected field "extra"/);
    expect(validator.problems('GET', '/api/apps/12', { status: 418, headers, body: { error: 'x' } }).join('\n')).toMatch(/status 418 is not documented/);
    expect(validator.problems('GET', '/api/nothing-here', { status: 404, headers, body: { error: 'API not found' } })).toEqual([]);
    expect(validator.problems('GET', '/api/users', { status: 200, headers, body: [] }).join('\n')).toMatch(/header X-Total-Count is missing/);
  });
});
