// The figures of a jest run, for the end of `npm test` and of CI's log: per tier
// (unit, component, end-to-end, plan check) its files, tests, failures and the
// time its files took (summed over jest's workers: the tiers run interleaved on
// them, so only the run as a whole has a wall time), then the ten slowest files,
// and last each failed test with the start of its message.
// A regression shows the day it lands; docs/performance.md keeps them over time.
import path from 'node:path';

/** The tier of a test file, by the same folders as jest.config.js's projects. */
export function tierOf(relativeFile) {
  if (relativeFile.startsWith('tests/e2e/')) return 'e2e';
  if (relativeFile.startsWith('tests/plans/')) return 'plans';
  if (relativeFile.startsWith('tests/deploy/') || /^(libs|services|clients)\/[^/]+\/src\//.test(relativeFile)) return 'unit';
  if (/^(libs|services)\/[^/]+\/test\//.test(relativeFile)) return 'component';
  return 'other';
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Lines of text: one table of tiers, one of the slowest files, and what starting Hangars cost.
 * `results` are jest's --json outputs with their wall times; `starts` the HANGAR_START_LOG lines.
 */
export function figures(root, runs, starts = '') {
  const tiers = new Map();
  const files = [];
  for (const { results } of runs) {
    for (const file of results.testResults ?? []) {
      const name = path.relative(root, file.name);
      const tier = tierOf(name);
      const ms = (file.endTime ?? 0) - (file.startTime ?? 0);
      const row = tiers.get(tier) ?? { files: 0, tests: 0, failed: 0, ms: 0 };
      row.files += 1;
      row.tests += (file.assertionResults ?? []).length;
      row.failed += (file.assertionResults ?? []).filter((a) => a.status === 'failed').length + (file.status === 'failed' && !(file.assertionResults ?? []).length ? 1 : 0);
      row.ms += ms;
      tiers.set(tier, row);
      files.push({ name, ms });
    }
  }
  const lines = ['', 'tier        files   tests  failed   time in its files', '----------  -----  ------  ------  -----------------'];
  for (const tier of ['unit', 'component', 'e2e', 'plans', 'other']) {
    const row = tiers.get(tier);
    if (row) lines.push(`${tier.padEnd(10)}  ${String(row.files).padStart(5)}  ${String(row.tests).padStart(6)}  ${String(row.failed).padStart(6)}  ${seconds(row.ms).padStart(10)}`);
  }
  for (const { title, wallMs } of runs) lines.push(`jest (${title}): ${seconds(wallMs)} wall`);
  lines.push('', 'ten slowest files:');
  for (const { name, ms } of files.sort((a, b) => b.ms - a.ms).slice(0, 10)) lines.push(`  ${seconds(ms).padStart(8)}  ${name}`);
  lines.push(...startFigures(starts));
  lines.push(...failureFigures(root, runs));
  return lines;
}

/** Lines of a failure worth reading in a log's last screen: no colours, stack frames or code frames. */
const MESSAGE_LINES = 8;

function failureSummary(message) {
  return message
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() && !/^\s+at /.test(line) && !/^\s*>?\s*\d+ \|/.test(line) && !/^\s+\|\s+\^/.test(line) && !/^[-+] (Expected|Received) /.test(line))
    .slice(0, MESSAGE_LINES)
    .map((line) => (line.length > 240 ? `${line.slice(0, 240)}…` : line));
}

/**
 * Each failed test with the start of its message, last in the figures: CI's record keeps only a
 * log's end, where the figures are, and a failure's own lines scrolled away before them (CI
 * 2026-11-30: the record showed which file failed, not which assertion).
 */
export function failureFigures(root, runs) {
  const lines = [];
  for (const { results } of runs) {
    for (const file of results.testResults ?? []) {
      const name = path.relative(root, file.name);
      const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of failed) lines.push(`  ✕ ${name} › ${a.fullName}`, ...failureSummary((a.failureMessages ?? []).join('\n')).map((l) => `      ${l}`));
      if (file.status === 'failed' && failed.length === 0) lines.push(`  ✕ ${name} (the file did not run)`, ...failureSummary(file.message ?? '').map((l) => `      ${l}`));
    }
  }
  return lines.length ? ['', 'failed:', ...lines] : [];
}

/** How many Hangars the end-to-end files started and the time it took them, in all and by file. */
export function startFigures(starts) {
  const rows = starts
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [ms, replicas, file] = line.split('\t');
      return { ms: Number(ms), replicas: Number(replicas), file: file || '(unknown)' };
    });
  if (rows.length === 0) return [];
  const total = rows.reduce((sum, r) => sum + r.ms, 0);
  const byFile = new Map();
  for (const r of rows) {
    const f = byFile.get(r.file) ?? { count: 0, ms: 0 };
    f.count += 1;
    f.ms += r.ms;
    byFile.set(r.file, f);
  }
  const lines = ['', `Hangar starts: ${rows.length}, ${seconds(total)} in all (${seconds(total / rows.length)} each, ${rows[0].replicas} replica(s))`];
  for (const [file, f] of [...byFile].sort((a, b) => b[1].ms - a[1].ms).slice(0, 5)) lines.push(`  ${seconds(f.ms).padStart(8)}  ${f.count}×  ${file}`);
  return lines;
}
