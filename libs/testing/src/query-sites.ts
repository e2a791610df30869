import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { QUERY_METHODS } from '@hangar/mongo';

/**
 * Every place in Hangar's code that sends a query with a filter, found by
 * reading the code (the TypeScript syntax tree), not listed by hand: calls of
 * the model and collection methods below in the services' data layers, the
 * outbox relay, the counters and the job turns. The plan check requires each
 * one to have been seen running, and explains what it sent.
 */
export interface QuerySite {
  /** As a stack trace names it: `ReleasesRepository.findById`, or a function's name. */
  functionName: string;
  /** Repository-relative, without extension: `services/releases/src/data/releases.repository`. */
  file: string;
  line: number;
  method: string;
}

const QUERY_METHOD_NAMES = new Set<string>(QUERY_METHODS);

/** Where Hangar's queries live (ARCHITECTURE.md: repositories in src/data, plus the shared data helpers). */
export function queryFiles(root: string): string[] {
  const files: string[] = [];
  for (const service of fs.readdirSync(path.join(root, 'services'))) {
    const data = path.join(root, 'services', service, 'src', 'data');
    if (!fs.existsSync(data)) continue;
    for (const f of fs.readdirSync(data)) if (f.endsWith('.ts') && !f.endsWith('.test.ts')) files.push(path.join(data, f));
  }
  files.push(path.join(root, 'libs/events/src/outbox.ts'), path.join(root, 'libs/mongo/src/counters.ts'), path.join(root, 'libs/mongo/src/job-turns.ts'));
  return files;
}

export function listQuerySites(root: string): QuerySite[] {
  const sites: QuerySite[] = [];
  for (const file of queryFiles(root)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const relative = path.relative(root, file).replace(/\.ts$/, '');
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && QUERY_METHOD_NAMES.has(node.expression.name.text)) {
        const first = node.arguments[0];
        // `array.find(x => …)` is not a query.
        const isArrayCallback = first !== undefined && (ts.isArrowFunction(first) || ts.isFunctionExpression(first));
        const functionName = enclosingName(node);
        if (!isArrayCallback && functionName) {
          sites.push({ functionName, file: relative, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, method: node.expression.name.text });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return sites;
}

/** The name a stack trace gives the function a call runs in (anonymous callbacks take their container's). */
function enclosingName(node: ts.Node): string | undefined {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if ((ts.isMethodDeclaration(n) || ts.isGetAccessorDeclaration(n)) && n.name && ts.isIdentifier(n.name)) {
      const owner = ts.isClassDeclaration(n.parent) && n.parent.name ? `${n.parent.name.text}.` : '';
      return `${owner}${n.name.text}`;
    }
    if (ts.isFunctionDeclaration(n) && n.name) return n.name.text;
    if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && ts.isVariableDeclaration(n.parent) && ts.isIdentifier(n.parent.name)) {
      return n.parent.name.text;
    }
  }
  return undefined;
}
