import fs from 'node:fs';

/**
 * Stack frames inside a service's one-file bundle (`dist/main.bundle.js`, scripts/bundle-services.mjs)
 * named by the module they come from, as they would be when the service runs from its files: for the
 * query log (query-log.ts), which reads each query's site from its stack.
 *
 * Why not source maps: Node maps frames through them only when started with `--enable-source-maps`,
 * and reading a bundle's 13 MB map cost each service more CPU at start (measured: 580–810 ms
 * against 440 ms from its files) than the bundle saves. esbuild (not minifying) starts each module's
 * code with a comment naming it, `// services/apps/dist/data/apps.repository.js`, the path from the
 * repository root; the last such comment at or above a frame's line names the frame's module.
 */

const BUNDLE_FRAME = /\(?([^\s()]*main\.bundle\.js):(\d+):(\d+)\)?$/;
/** The comment esbuild writes at the top of each module's code, the module's path from the repository root. */
const MODULE_START = /^\/\/ (\S+)$/;

interface ModuleIndex {
  /** 1-based line numbers where modules start, ascending. */
  lines: number[];
  paths: string[];
}

const indexes = new Map<string, ModuleIndex | null>();

function indexOf(bundle: string): ModuleIndex | null {
  if (indexes.has(bundle)) return indexes.get(bundle)!;
  let index: ModuleIndex | null = null;
  try {
    index = { lines: [], paths: [] };
    const text = fs.readFileSync(bundle, 'utf8').split('\n');
    for (let i = 0; i < text.length; i++) {
      const match = MODULE_START.exec(text[i]!);
      if (match) {
        index.lines.push(i + 1);
        index.paths.push(match[1]!);
      }
    }
  } catch {
    index = null;
  }
  indexes.set(bundle, index);
  return index;
}

/** The module (its path from the repository root) holding `line` of `bundle`, if the bundle can be read. */
export function moduleAt(bundle: string, line: number): string | undefined {
  const index = indexOf(bundle);
  if (!index) return undefined;
  let low = 0;
  let high = index.lines.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (index.lines[mid]! <= line) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found < 0 ? undefined : index.paths[found];
}

/**
 * A stack trace's line with a frame in a bundle rewritten to name its module, `/<path>:line:col`
 * (the line and column stay the bundle's); any other line as it was.
 */
export function unbundledFrame(stackLine: string): string {
  const match = BUNDLE_FRAME.exec(stackLine);
  if (!match) return stackLine;
  const module = moduleAt(match[1]!, Number(match[2]));
  return module ? `${stackLine.slice(0, match.index)}(/${module}:${match[2]}:${match[3]})` : stackLine;
}
