import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '../../../services/gateway/src/openapi/openapi';

describe("the clients' API types", () => {
  it("when the gateway's OpenAPI document changes, then the committed src/openapi.ts must be generated again", () => {
    const committed = fs.readFileSync(path.join(__dirname, 'openapi.ts'), 'utf8');
    const fresh = execFileSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'render-api-types.js')], {
      input: JSON.stringify(openApiDocument('0.0.0')),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    // On a difference: npm run build && npm run api-types
    expect({ upToDate: committed === fresh }).toEqual({ upToDate: true });
  });
});
