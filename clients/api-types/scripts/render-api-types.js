// One rendering for the generator and its drift check (src/api-types.test.ts). Run as a
// program it renders the OpenAPI document read on stdin (jest cannot load openapi-typescript's
// ES-module dependencies, so the check runs this in a child process).
const { default: openapiTS, astToString } = require('openapi-typescript');

async function renderApiTypes(document) {
  const ast = await openapiTS(document, { alphabetize: true });
  return `// Generated from the gateway's OpenAPI document by clients/api-types/scripts/gen-api-types.js: do not edit.\n// npm run build && npm run api-types writes it again.\n\n${astToString(ast)}`;
}

module.exports = { renderApiTypes };

if (require.main === module) {
  let input = '';
  process.stdin.on('data', (d) => (input += d));
  process.stdin.on('end', () => renderApiTypes(JSON.parse(input)).then((text) => process.stdout.write(text)));
}
