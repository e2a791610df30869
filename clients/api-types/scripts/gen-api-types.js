// Writes src/openapi.ts from the gateway's OpenAPI document (built: run `npm run build` first),
// for every client that speaks the API (clients/cli, clients/console).
// src/api-types.test.ts fails while the committed file differs from what this writes.
const fs = require('node:fs');
const path = require('node:path');
const { renderApiTypes } = require('./render-api-types.js');

const { openApiDocument } = require(path.join(__dirname, '..', '..', '..', 'services', 'gateway', 'dist', 'openapi', 'openapi.js'));
renderApiTypes(openApiDocument('0.0.0')).then((text) => {
  const out = path.join(__dirname, '..', 'src', 'openapi.ts');
  fs.writeFileSync(out, text);
  process.stdout.write(`wrote ${path.relative(process.cwd(), out)}\n`);
});
