import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '../../../services/gateway/src/openapi/openapi';

describe("the console's API types", () => {
  it("when the gateway's OpenAPI document changes, then the committed src/api/openapi.ts must be generated again", () => {
    const committed = fs.readFileSync(path.join(__dirname, 'api', 'openapi.ts'), 'utf8');
    const fresh = execFileSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'render-api-types.cjs')], {
      input: JSON.stringify(openApiDocument('0.0.0')),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    // On a difference: npm run build && npm run api-types -w @hangar/console
    expect({ upToDate: committed === fresh }).toEqual({ upToDate: true });
  });
});
