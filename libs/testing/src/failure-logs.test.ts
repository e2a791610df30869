import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { problemLines } from './failure-logs';

describe('problemLines', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-failure-logs-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('when a process wrote warnings, errors and plain stderr, then those are shown, and neither its info entries nor a third-party text log are', () => {
    fs.mkdirSync(path.join(dataDir, 'logs'));
    fs.writeFileSync(
      path.join(dataDir, 'logs', 'apps.log'),
      [
        '{"level":"info","msg":"metrics at /metrics"}',
        'apps service failed to start: listen EADDRINUSE: address already in use 127.0.0.1:23456',
        '{"level":"warn","msg":"slow answer"}',
        '',
      ].join('\n'),
    );
    fs.writeFileSync(path.join(dataDir, 'logs', 'users.log'), '{"level":"info","msg":"listening"}\n');
    fs.writeFileSync(path.join(dataDir, 'logs', 'ferretdb.log'), '2026/11/28 01:07:09 INFO Connection started name=listener\n  "Sections": [\n');
    const shown = problemLines(dataDir);
    expect(shown).toContain('── apps.log (last 2 of 2 warnings and errors)');
    expect(shown).toContain('apps service failed to start: listen EADDRINUSE');
    expect(shown).toContain('slow answer');
    expect(shown).not.toContain('metrics at /metrics');
    expect(shown).not.toContain('users.log');
    expect(shown).not.toContain('ferretdb.log');
  });
});
