import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../http/error-handler';
import { NO_TOKEN, ok, ref } from '../../openapi/openapi-parts';
import { operation } from '../../operations/declare';
import type { HealthProbe } from './health-probe';

export interface VersionInfo {
  version: string;
  vcs_ref: string;
  build_date: string;
}

/** What the system operations answer from: the running build, the services' health, this API's document. */
export interface SystemFacts {
  versionInfo: VersionInfo;
  health: HealthProbe;
  /** `GET /api/openapi.json`'s body, built once at start. */
  openApiJson: string;
}

const version = (operationId: 'getVersion' | 'getApiVersion', path: string) =>
  operation({
    method: 'get',
    path,
    operationId,
    tag: 'System',
    summary: 'Running version',
    scopes: null,
    params: {},
    responses: { '200': ok('Version', ref('VersionInfo')) },
    openApi: { security: NO_TOKEN },
    async handle({ system, res }) {
      res.json(system.versionInfo);
    },
  });

/** The running version, the health of every service and dependency, and this document: no token needed. */
export const systemOperations = [
  version('getVersion', '/version'),
  version('getApiVersion', '/api/version'),
  operation({
    method: 'get',
    path: '/api/health',
    operationId: 'getHealth',
    tag: 'System',
    summary: 'Health of every service',
    scopes: null,
    params: {},
    responses: {
      '200': ok('Every service and dependency is healthy', ref('Health')),
      '503': ok('A service does not answer or a dependency is unavailable', ref('Health'), { 'Retry-After': { required: true, description: 'Seconds to wait', schema: { type: 'string', pattern: '^[0-9]+$' } } }),
    },
    openApi: { security: NO_TOKEN },
    async handle({ system, res }) {
      const body = await system.health.answer();
      if (!body.healthy) res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      res.status(body.healthy ? 200 : 503).json(body);
    },
  }),
  operation({
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'getOpenApi',
    tag: 'System',
    summary: 'This document',
    scopes: null,
    params: {},
    responses: { '200': ok('OpenAPI 3.1 document', { type: 'object' }) },
    openApi: { security: NO_TOKEN },
    async handle({ system, res }) {
      res.type('application/json').setHeader('Cache-Control', 'public, max-age=300');
      res.send(system.openApiJson);
    },
  }),
];
