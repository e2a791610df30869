import fs from 'node:fs';
import path from 'node:path';

/**
 * The programs test code starts, read from its source: the first argument of
 * a child-process call (or of a local wrapper named `sh` / `run`) when it is a
 * string literal, and absolute /usr paths (a binary the tests default to, a
 * data file they need). Calls whose program is computed (process.execPath,
 * natsServerBinary()) are the code's own business and not counted.
 */
const CALL = /\b(?:execFileSync|execFile|spawnSync|spawn|execSync|exec|sh|run)\(\s*(['"`])([^'"`$\s]+)\1/g;
const PROMISIFIED = /promisify\(execFile\)\(\s*(['"`])([^'"`$\s]+)\1/g;
const USR_PATH = /(['"`])(\/usr\/(?:s?bin|share)\/[^'"`$\s]+)\1/g;

export interface SpawnedProgram {
  /** A command name or path, as written. */
  program: string;
  file: string;
}

export function programsIn(source: string, file = '<source>'): SpawnedProgram[] {
  const found = new Set<string>();
  for (const pattern of [CALL, PROMISIFIED, USR_PATH]) {
    for (const match of source.matchAll(pattern)) found.add(match[2]!);
  }
  return [...found].map((program) => ({ program, file }));
}

/** Test files, their helpers and the test infrastructure lib, below `root`. */
export function testSourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string, all: boolean) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, all);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && (all || entry.name.endsWith('.test.ts'))) files.push(full);
    }
  };
  for (const group of ['libs', 'services']) {
    for (const pkg of fs.readdirSync(path.join(root, group))) {
      const base = path.join(root, group, pkg);
      if (fs.existsSync(path.join(base, 'test'))) walk(path.join(base, 'test'), true);
      if (fs.existsSync(path.join(base, 'src'))) walk(path.join(base, 'src'), pkg === 'testing' && group === 'libs');
    }
  }
  walk(path.join(root, 'tests'), true);
  return files;
}
