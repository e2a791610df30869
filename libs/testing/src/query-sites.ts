import fs from 'node:fs';
import path from 'node:path';
import type ts from 'typescript';
import type { QUERY_METHODS } from '@hangar/mongo';

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

/**
 * The compiler, loaded on first use, not with the module: every test file imports @hangar/testing
 * and only the plan check reads code. Loading it with the library cost each test file 0.26 s of CPU
 * (profiled 2026-11-30).
 */
function compiler(): typeof ts {
  return require('typescript') as typeof ts;
}

export function listQuerySites(root: string): QuerySite[] {
  const typescript = compiler();
  // @hangar/mongo loads mongoose: loaded here for the same reason as the compiler.
  const queryMethods = new Set<string>((require('@hangar/mongo') as { QUERY_METHODS: typeof QUERY_METHODS }).QUERY_METHODS);
  const sites: QuerySite[] = [];
  for (const file of queryFiles(root)) {
    const source = typescript.createSourceFile(file, fs.readFileSync(file, 'utf8'), typescript.ScriptTarget.ES2022, true);
    const relative = path.relative(root, file).replace(/\.ts$/, '');
    const visit = (node: ts.Node) => {
      if (typescript.isCallExpression(node) && typescript.isPropertyAccessExpression(node.expression) && queryMethods.has(node.expression.name.text)) {
        const first = node.arguments[0];
        // `array.find(x => …)` is not a query.
        const isArrayCallback = first !== undefined && (typescript.isArrowFunction(first) || typescript.isFunctionExpression(first));
        const functionName = enclosingName(node);
        if (!isArrayCallback && functionName) {
          sites.push({ functionName, file: relative, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, method: node.expression.name.text });
        }
      }
      typescript.forEachChild(node, visit);
    };
    visit(source);
  }
  return sites;
}

/** The name a stack trace gives the function a call runs in (anonymous callbacks take their container's). */
function enclosingName(node: ts.Node): string | undefined {
  const typescript = compiler();
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if ((typescript.isMethodDeclaration(n) || typescript.isGetAccessorDeclaration(n)) && n.name && typescript.isIdentifier(n.name)) {
      const owner = typescript.isClassDeclaration(n.parent) && n.parent.name ? `${n.parent.name.text}.` : '';
      return `${owner}${n.name.text}`;
    }
    if (typescript.isFunctionDeclaration(n) && n.name) return n.name.text;
    if ((typescript.isArrowFunction(n) || typescript.isFunctionExpression(n)) && typescript.isVariableDeclaration(n.parent) && typescript.isIdentifier(n.parent.name)) {
      return n.parent.name.text;
    }
  }
  return undefined;
}
