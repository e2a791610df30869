import { ROUTE_SCOPES } from '../auth/route-scopes';
import { OperationIndex } from '../auth/operation-of';
import { openApiDocument } from '../openapi/openapi';
import type { Operation } from '../openapi/schema-types';
import { DECLARED_OPERATIONS } from './catalogue';
import { expressPath } from './mount';

/** What one declaration gives: the document's entry, the scope row, and the operation a request is matched to. */
describe('operations declared once', () => {
  const document = openApiDocument('test');
  const operations = new OperationIndex(document.paths as never);

  it.each(DECLARED_OPERATIONS.map((declared) => [declared.operationId, declared] as const))('%s is in the document, the scope table and the request index as declared', (_id, declared) => {
    const entry = document.paths[declared.path]?.[declared.method] as Operation | undefined;
    expect(entry).toMatchObject({ operationId: declared.operationId, summary: declared.summary, tags: [declared.tag] });
    expect(entry!['x-hangar-scopes']).toEqual(declared.scopes ?? undefined);
    expect(ROUTE_SCOPES[declared.operationId]).toEqual(declared.scopes);
    // A request to the route express mounts is matched to the declared operation (scopes, audit).
    const example = expressPath(declared.path).replace(/:[^/]+/g, '7');
    expect(operations.operationOf(declared.method.toUpperCase(), example)).toBe(declared.operationId);
    // Its path parameters are documented on the path, each as the declaration names it.
    expect((document.paths[declared.path]!.parameters ?? []).map((p) => p.name)).toEqual(Object.keys(declared.params));
  });

  it('no operation id is declared twice, nor also written in the hand-written part of the document', () => {
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).filter((v): v is Operation => !!v && typeof v === 'object' && 'operationId' in v).map((op) => op.operationId));
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
});
