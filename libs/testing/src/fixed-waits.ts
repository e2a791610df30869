import fs from 'node:fs';
import path from 'node:path';

/**
 * Fixed waits in tests: `await sleep(1_000)`, `setTimeout(resolve, GRACE_MS)` — a test that waits
 * a fixed time is slow on a quiet machine and flaky on a loaded one; it should wait for a
 * condition (an event seen, a counter read, a queue drained: `eventually` in ./eventually.ts)
 * or move an injected clock instead.
 *
 * Counted: a call of `sleep`, `delay`, `wait`, `setTimeout` or `waitForTimeout` whose time is a
 * number literal of `MIN_FIXED_WAIT_MS` or more, or the name of a constant this file sets to such
 * a literal (`const GRACE_MS = 1_500`). Not counted: shorter waits; the step of a polling loop
 * written on one line (`while (!seen()) await sleep(50)`); a time computed from something else
 * (`sleep(expiresAt - Date.now())`, a parameter); comment lines; `jest.setTimeout`, which sets a
 * test's time limit and waits for nothing; and a wait on jest's fake clock, written with a name
 * of its own (`fakeSleep`), which costs no real time.
 */
export const MIN_FIXED_WAIT_MS = 100;

export interface FixedWait {
  file: string;
  line: number;
  ms: number;
}

const WAIT = /(?<!jest\.)\b(?:sleep|delay|setTimeout|wait|waitForTimeout)\(\s*(?:\w+\s*,\s*)?(\d[\d_]*|[A-Za-z_$][\w$]*)\s*[,)]/g;
const CONSTANT = /\bconst\s+([A-Za-z_$][\w$]*)\s*(?::\s*number\s*)?=\s*(\d[\d_]*)\s*;/g;
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*)/;

const numberOf = (literal: string) => Number(literal.replaceAll('_', ''));

/** The fixed waits of `MIN_FIXED_WAIT_MS` or more in one source text. */
export function fixedWaitsIn(source: string, file = ''): FixedWait[] {
  const constants = new Map<string, number>();
  for (const match of source.matchAll(CONSTANT)) constants.set(match[1]!, numberOf(match[2]!));
  const waits: FixedWait[] = [];
  source.split('\n').forEach((text, index) => {
    if (COMMENT_LINE.test(text) || /\bwhile\s*\(/.test(text)) return;
    for (const match of text.matchAll(WAIT)) {
      const argument = match[1]!;
      const ms = /^\d/.test(argument) ? numberOf(argument) : constants.get(argument);
      if (ms !== undefined && ms >= MIN_FIXED_WAIT_MS) waits.push({ file, line: index + 1, ms });
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
