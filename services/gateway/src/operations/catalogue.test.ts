import { isLimitedGrant } from '../auth/token-scopes';
import { OperationIndex } from '../auth/operation-of';
import { openApiDocument } from '../openapi/openapi';
import type { Operation } from '../openapi/schema-types';
import { DECLARED_OPERATIONS } from './catalogue';
import { expressPath } from './mount';

/** What one declaration gives: the document's entry, its scopes, and the operation a request is matched to. */
describe('operations declared once', () => {
  const document = openApiDocument('test');
  const operations = new OperationIndex(document.paths as never);

  it.each(DECLARED_OPERATIONS.map((declared) => [declared.operationId, declared] as const))('%s is in the document and the request index as declared', (_id, declared) => {
    const entry = document.paths[declared.path]?.[declared.method] as Operation | undefined;
    expect(entry).toMatchObject({ operationId: declared.operationId, summary: declared.summary, tags: [declared.tag] });
    expect(entry!['x-hangar-scopes']).toEqual(declared.scopes ?? undefined);
    // A request to the route express mounts is matched to the declared operation (scopes, audit).
    const example = expressPath(declared.path).replace(/:[^/]+/g, '7');
    expect(operations.operationOf(declared.method.toUpperCase(), example)).toBe(declared.operationId);
    // Its path parameters are documented on the path, each as the declaration names it.
    expect((document.paths[declared.path]!.parameters ?? []).map((p) => p.name)).toEqual(Object.keys(declared.params));
  });

  it('no operation id is declared twice', () => {
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).filter((v): v is Operation => !!v && typeof v === 'object' && 'operationId' in v).map((op) => op.operationId));
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('when account management is declared, then only on the operations of users, tokens and sessions', () => {
    const rules = Object.fromEntries(DECLARED_OPERATIONS.filter((declared) => declared.account).map((declared) => [declared.operationId, declared.account]));
    expect(rules).toEqual({
      listUsers: 'never', searchUsers: 'never', createUser: 'never', getUser: 'own', updateUser: 'never', patchUser: 'never', deleteUser: 'never',
      changePassword: 'never', listTokens: 'own', createToken: 'never', revokeToken: 'never', revokeSession: 'never',
    });
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
    const getApp = document.paths['/api/apps/{id}']!.get!;
    const page = document.paths['/releases/{id}']!.get!;
    expect(getApp['x-hangar-scopes']).toEqual(['read']);
    expect(page['x-hangar-scopes']).toBeUndefined();
  });

  it('when requests are matched to operations, then literal paths win over templates and HEAD of a GET is the GET', () => {
    expect(operations.operationOf('GET', '/api/apps/versions')).toBe('listVersions');
    expect(operations.operationOf('GET', '/api/apps/12')).toBe('getApp');
    expect(operations.operationOf('POST', '/api/apps/upload')).toBe('uploadRelease');
    expect(operations.operationOf('GET', '/api/users/me')).toBe('getMe');
    expect(operations.operationOf('HEAD', '/api/uploads/abc')).toBe('getUploadOffset');
    expect(operations.operationOf('HEAD', '/api/releases/3/icon')).toBe('getReleaseIcon');
    expect(operations.operationOf('GET', '/symbols/app.pdb/ABC/app.pdb')).toBe('microsoftSymbolsWithToken');
    expect(operations.operationOf('GET', '/symbols/key/app.pdb/ABC/app.pdb')).toBe('microsoftSymbolsWithCredentialInPath');
    expect(operations.operationOf('GET', '/api/releases/3/manifest.plist')).toBe('getReleaseManifest');
    expect(operations.operationOf('DELETE', '/api/nothing/here')).toBeUndefined();
  });
});
