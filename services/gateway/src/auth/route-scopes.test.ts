import { openApiDocument } from '../openapi/openapi';
import { OperationIndex } from './operation-of';
import { ACCOUNT_OPERATIONS, ROUTE_SCOPES, isLimitedGrant } from './route-scopes';

describe('the scope table and the operations it names', () => {
  const paths = openApiDocument('test').paths as ConstructorParameters<typeof OperationIndex>[0];
  const documented = Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => (op && typeof op === 'object' && 'operationId' in op ? [op.operationId as string] : [])));

  it('when the OpenAPI document lists its operations, then each has a row and each row is an operation', () => {
    expect(Object.keys(ROUTE_SCOPES).sort()).toEqual([...documented].sort());
  });

  it('when the account rule names operations, then each is a documented operation', () => {
    expect(Object.keys(ACCOUNT_OPERATIONS).filter((id) => !documented.includes(id))).toEqual([]);
  });

  it('when a token has an app limit, or scopes without admin, then it is limited; unscoped or admin-scoped without apps, it is not', () => {
    expect(isLimitedGrant({ scopes: [], appIds: [1] })).toBe(true);
    expect(isLimitedGrant({ scopes: ['admin'], appIds: [1] })).toBe(true);
    expect(isLimitedGrant({ scopes: ['read'], appIds: [] })).toBe(true);
    expect(isLimitedGrant({ scopes: [], appIds: [] })).toBe(false);
    expect(isLimitedGrant({ scopes: ['read', 'admin'], appIds: [] })).toBe(false);
    expect(isLimitedGrant(undefined)).toBe(false);
  });

  it('when a route reads a token, then the document shows the scopes it needs; when it reads none, then none', () => {
    const getApp = (paths['/api/apps/{id}'] as { get: { 'x-hangar-scopes'?: string[] } }).get;
    const page = (paths['/releases/{id}'] as { get: { 'x-hangar-scopes'?: string[] } }).get;
    expect(getApp['x-hangar-scopes']).toEqual(['read']);
    expect(page['x-hangar-scopes']).toBeUndefined();
  });

  it('when requests are matched to operations, then literal paths win over templates and HEAD of a GET is the GET', () => {
    const index = new OperationIndex(paths);
    expect(index.operationOf('GET', '/api/apps/versions')).toBe('listVersions');
    expect(index.operationOf('GET', '/api/apps/12')).toBe('getApp');
    expect(index.operationOf('POST', '/api/apps/upload')).toBe('uploadRelease');
    expect(index.operationOf('GET', '/api/users/me')).toBe('getMe');
    expect(index.operationOf('HEAD', '/api/uploads/abc')).toBe('getUploadOffset');
    expect(index.operationOf('HEAD', '/api/releases/3/icon')).toBe('getReleaseIcon');
    expect(index.operationOf('GET', '/symbols/app.pdb/ABC/app.pdb')).toBe('microsoftSymbolsWithToken');
    expect(index.operationOf('GET', '/symbols/key/app.pdb/ABC/app.pdb')).toBe('microsoftSymbolsWithCredentialInPath');
    expect(index.operationOf('GET', '/api/releases/3/manifest.plist')).toBe('getReleaseManifest');
    expect(index.operationOf('DELETE', '/api/nothing/here')).toBeUndefined();
  });
});
