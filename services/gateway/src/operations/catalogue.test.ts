import type { AddressInfo } from 'node:net';
import express from 'express';
import { isLimitedGrant } from '../auth/token-scopes';
import { operationOf, rememberCaller } from '../http/caller-context';
import { openApiDocument } from '../openapi/openapi';
import type { Operation } from '../openapi/schema-types';
import { DECLARED_OPERATIONS } from './catalogue';
import type { AnyOperation } from './declare';
import { expressPath, mountOperations } from './mount';

/** What one declaration gives: the document's entry, its scopes, and the operation a request is matched to. */
describe('operations declared once', () => {
  const document = openApiDocument('test');
  // The real routes, in the real order, each answering the operation express routed it to and nothing else.
  const routedTo = (declared: AnyOperation): AnyOperation => ({ ...declared, scopes: null, caller: undefined, before: [], handle: async ({ req, res }) => void res.setHeader('x-operation', operationOf(req)?.id ?? '').json(operationOf(req) ?? null) });
  const app = express();
  app.use(rememberCaller);
  app.use(mountOperations(DECLARED_OPERATIONS.map(routedTo), { clients: {} } as never, { maxBodyBytes: 1024 }));
  app.use((_req, res) => void res.status(404).json(null));
  const server = app.listen(0, '127.0.0.1');
  beforeAll(() => new Promise((resolve) => server.once('listening', resolve)));
  afterAll(() => server.close());
  /** The operation a request is routed to, and the path parameters it is judged with. */
  const operationOfRequest = async (method: string, path: string): Promise<string | undefined> => {
    // A header, not the body: a HEAD's answer has none.
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { method });
    return res.headers.get('x-operation') || undefined;
  };

  it.each(DECLARED_OPERATIONS.map((declared) => [declared.operationId, declared] as const))('%s is in the document and routed to as declared', async (_id, declared) => {
    const entry = document.paths[declared.path]?.[declared.method] as Operation | undefined;
    expect(entry).toMatchObject({ operationId: declared.operationId, summary: declared.summary, tags: [declared.tag] });
    expect(entry!['x-hangar-scopes']).toEqual(declared.scopes ?? undefined);
    // A request to the route express mounts is routed to the declared operation (scopes, audit), whatever came before it.
    const example = expressPath(declared.path).replace(/:[^/]+/g, '7');
    expect(await operationOfRequest(declared.method.toUpperCase(), example)).toBe(declared.operationId);
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

  it('when requests are routed, then literal paths win over templates and the path parameters are kept as sent', async () => {
    expect(await operationOfRequest('GET', '/api/apps/versions')).toBe('listVersions');
    expect(await operationOfRequest('GET', '/api/apps/12')).toBe('getApp');
    expect(await operationOfRequest('POST', '/api/apps/upload')).toBe('uploadRelease');
    expect(await operationOfRequest('GET', '/api/users/me')).toBe('getMe');
    expect(await operationOfRequest('HEAD', '/api/uploads/abc')).toBe('getUploadOffset');
    expect(await operationOfRequest('GET', '/symbols/app.pdb/ABC/app.pdb')).toBe('microsoftSymbolsWithToken');
    expect(await operationOfRequest('GET', '/symbols/key/app.pdb/ABC/app.pdb')).toBe('microsoftSymbolsWithCredentialInPath');
    expect(await operationOfRequest('GET', '/api/releases/3/manifest.plist')).toBe('getReleaseManifest');
    expect(await operationOfRequest('DELETE', '/api/nothing/here')).toBeUndefined();
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/users/5/tokens`);
    expect(await res.json()).toEqual({ id: 'listTokens', params: { id: '5' } });
  });
});
