import { formBody, operationObject, pathId } from '../openapi/openapi-parts';
import type { JsonSchema, PathItem } from '../openapi/schema-types';
import type { AnyOperation, IdParam } from './declare';

/**
 * The OpenAPI path items of declared operations, in the forms the hand-written part of the
 * document uses: path parameters on the path item, bodies in the three encodings.
 */
export function pathItemsOf(operations: readonly AnyOperation[]): Record<string, PathItem> {
  const items: Record<string, PathItem> = {};
  for (const declared of operations) {
    // A `me` is no id: documented as text.
    const parameters = Object.entries(declared.params as Record<string, IdParam>).map(([name, param]) =>
      param.kind === 'id' ? pathId(name, param.description) : pathId(name, param.description, param.schema ?? { type: 'string' }),
    );
    const item = (items[declared.path] ??= parameters.length > 0 ? { parameters } : {});
    if (JSON.stringify(item.parameters ?? []) !== JSON.stringify(parameters)) throw new Error(`${declared.operationId}: ${declared.path}'s parameters are described differently by another operation`);
    if (item[declared.method]) throw new Error(`${declared.method.toUpperCase()} ${declared.path} is declared twice`);
    const requestBody = declared.body ? { requestBody: formBody(declared.body.fields as Record<string, JsonSchema>, declared.body.required) } : {};
    item[declared.method] = operationObject(declared.operationId, declared.tag, declared.summary, declared.responses, { ...requestBody, ...declared.openApi }, declared.scopes);
  }
  return items;
}
