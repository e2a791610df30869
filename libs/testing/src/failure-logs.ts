import fs from 'node:fs';
import path from 'node:path';
import { isDyingWords } from '@hangar/infra';

/** Set on a test file's global by the jest environment when one of its tests or hooks failed. */
export const TEST_FAILED_FLAG = '__hangarTestFailed';

const LINES_PER_LOG = 25;

/** Whether a test or hook of the running file has failed so far. */
export function testFileHasFailed(): boolean {
  return (globalThis as Record<string, unknown>)[TEST_FAILED_FLAG] === true;
}

/**
 * The warnings and errors each process of a Hangar logged (its data dir's logs/, pino JSON
 * with level labels, and the line a process writes to stderr when it fails to start or
 * crashes), the last few per process. A failing end-to-end test prints these before
 * its Hangar's data dir is removed: an answer's status alone ("Received: 503") did not say
 * which process refused or why, and CI's log is all there is of a run on a clean machine.
 */
export function problemLines(dataDir: string): string {
  const logs = path.join(dataDir, 'logs');
  if (!fs.existsSync(logs)) return '';
  const sections: string[] = [];
  for (const file of fs.readdirSync(logs).sort()) {
    const lines = fs
      .readFileSync(path.join(logs, file), 'utf8')
      .split('\n')
      .filter(isProblem);
    if (lines.length > 0) sections.push(`── ${file} (last ${Math.min(lines.length, LINES_PER_LOG)} of ${lines.length} warnings and errors)\n${lines.slice(-LINES_PER_LOG).join('\n')}`);
  }
  return sections.join('\n');
}

/**
 * A warning or error entry, or what a process writes to stderr when it dies: its failed
 * start's message, an uncaught error. Not every plain line: FerretDB's and PostgreSQL's own
 * text logs would bury the one that matters.
 */
function isProblem(line: string): boolean {
  if (line.startsWith('{')) return /"level":"(warn|error|fatal)"/.test(line);
  return isDyingWords(line);
}
