import fs from 'node:fs';
import path from 'node:path';

/**
 * Fixed waits in tests: `await sleep(1_000)`, `setTimeout(resolve, 500)` — a test that waits
 * a fixed time is slow on a quiet machine and flaky on a loaded one; it should wait for a
 * condition (an event seen, a counter read) instead. Waits shorter than
 * `MIN_FIXED_WAIT_MS`, and the step of a polling loop written on one line
 * (`while (!seen()) await sleep(250)`), are not counted.
 */
export const MIN_FIXED_WAIT_MS = 100;

export interface FixedWait {
  file: string;
  line: number;
  ms: number;
}

const WAIT = /\b(?:sleep|delay|setTimeout|wait)\(\s*(?:\w+\s*,\s*)?(\d[\d_]*)\s*\)/g;

/** The fixed waits of `MIN_FIXED_WAIT_MS` or more in one source text. */
export function fixedWaitsIn(source: string, file = ''): FixedWait[] {
  const waits: FixedWait[] = [];
  source.split('\n').forEach((text, index) => {
    if (/\bwhile\s*\(/.test(text)) return;
    for (const match of text.matchAll(WAIT)) {
      const ms = Number(match[1]!.replaceAll('_', ''));
      if (ms >= MIN_FIXED_WAIT_MS) waits.push({ file, line: index + 1, ms });
    }
  });
  return waits;
}

/** Test files and the helpers tests share: every `*.test.ts`, `tests/**`, `libs/testing/src`. */
export function testFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
      const file = path.join(dir, entry.name);
      const relative = path.relative(root, file);
      if (entry.isDirectory()) walk(file);
      else if (/\.(ts|mjs)$/.test(entry.name) && (entry.name.includes('.test.') || relative.startsWith(`tests${path.sep}`) || relative.startsWith(path.join('libs', 'testing', 'src')))) out.push(file);
    }
  };
  for (const top of ['libs', 'services', 'clients', 'tests']) walk(path.join(root, top));
  return out;
}
