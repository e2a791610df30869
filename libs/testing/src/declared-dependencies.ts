import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

/**
 * What each npm workspace imports against what its package.json declares. A
 * workspace that imports a package it does not declare works only while npm
 * hoists that package for another workspace; a declared package nothing imports
 * is weight every install carries.
 */

export interface Workspace {
  dir: string;
  dependencies: Set<string>;
  devDependencies: Set<string>;
}

export interface Finding {
  workspace: string;
  name: string;
  problem: 'imported by shipped code but not in dependencies' | 'imported by tests or tooling but not declared' | 'declared but never imported';
}

// The forms of import the code uses: static import and export … from, a bare
// import, dynamic import(), require() and require.resolve() (the test lists them).
const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require(?:\.resolve)?\(\s*['"]([^'"]+)['"]\s*\)/gm;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'test-output', 'fixtures']);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/** The package a module specifier names, or undefined for relative paths and Node's own modules. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const [first, second] = specifier.split('/');
  if (builtinModules.includes(first!)) return undefined;
  return first!.startsWith('@') ? `${first}/${second}` : first;
}

/** Every package a source text imports. */
export function importsOf(source: string): string[] {
  const names = new Set<string>();
  for (const match of source.matchAll(SPECIFIER)) {
    const name = packageOf(match[1] ?? match[2] ?? match[3] ?? match[4]!);
    if (name) names.add(name);
  }
  return [...names];
}

/** Shipped code: under `src/`, and not a test or a test helper. */
export function isShipped(relativeFile: string): boolean {
  return relativeFile.startsWith(`src${path.sep}`) && !/\.test\.|\.property\.|\.d\.ts$/.test(relativeFile);
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(file, out);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(file);
  }
  return out;
}

function readWorkspace(root: string, dir: string): Workspace {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
  return { dir, dependencies: new Set(Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies })), devDependencies: new Set(Object.keys(pkg.devDependencies ?? {})) };
}

/** The root package.json's `workspaces` globs (`libs/*`, `tests`) as folders. */
export function workspacesOf(root: string): string[] {
  const { workspaces } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces: string[] };
  return workspaces.flatMap((glob) =>
    glob.endsWith('/*')
      ? fs
          .readdirSync(path.join(root, glob.slice(0, -2)))
          .map((name) => path.join(glob.slice(0, -2), name))
          .filter((dir) => fs.existsSync(path.join(root, dir, 'package.json')))
      : [glob],
  );
}

/**
 * Problems of one workspace. `rootTools` are the root package's devDependencies
 * (jest, fast-check, typescript…): every workspace's tests may use them.
 * `indirect` names declared packages used other than by import (binaries run
 * by name, packages resolved at run time), each with its reason.
 */
export function checkWorkspace(root: string, dir: string, rootTools: Set<string>, indirect: Record<string, string> = {}): Finding[] {
  const workspace = readWorkspace(root, dir);
  const shippedImports = new Set<string>();
  const otherImports = new Set<string>();
  for (const file of sourceFiles(path.join(root, dir))) {
    const into = isShipped(path.relative(path.join(root, dir), file)) ? shippedImports : otherImports;
    for (const name of importsOf(fs.readFileSync(file, 'utf8'))) into.add(name);
  }
  const self = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8')).name as string;
  const findings: Finding[] = [];
  for (const name of shippedImports) {
    if (name !== self && !workspace.dependencies.has(name)) findings.push({ workspace: dir, name, problem: 'imported by shipped code but not in dependencies' });
  }
  for (const name of otherImports) {
    if (name === self || shippedImports.has(name) || workspace.dependencies.has(name) || workspace.devDependencies.has(name) || rootTools.has(name)) continue;
    findings.push({ workspace: dir, name, problem: 'imported by tests or tooling but not declared' });
  }
  for (const name of [...workspace.dependencies, ...workspace.devDependencies]) {
    if (name.startsWith('@types/') || shippedImports.has(name) || otherImports.has(name) || indirect[name]) continue;
    findings.push({ workspace: dir, name, problem: 'declared but never imported' });
  }
  return findings;
}
