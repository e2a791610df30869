import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exitReason, fileSize } from './exit-reason';

describe('exitReason', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-exit-reason-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const logOf = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  it('when an earlier start of the process left a reason, then only what this start wrote counts', () => {
    const file = logOf('restarted.log', 'apps service failed to start: the old reason\n');
    const offset = fileSize(file);
    fs.appendFileSync(file, '{"level":"info","msg":"listening"}\n');
    expect(exitReason(file, offset)).toBeUndefined();
    expect(exitReason(file, 0)).toBe('apps service failed to start: the old reason');
  });

  it('when the log does not exist, then there is no reason and no error', () => {
    expect(exitReason(path.join(dir, 'missing.log'), 0)).toBeUndefined();
    expect(fileSize(path.join(dir, 'missing.log'))).toBe(0);
  });

  it('when the reason is very long, then it is cut to one readable line', () => {
    const file = logOf('long.log', `Error: ${'x'.repeat(1_000)}\n`);
    const reason = exitReason(file, 0)!;
    expect(reason.length).toBeLessThanOrEqual(301);
    expect(reason.startsWith('Error: xxx')).toBe(true);
  });

  it('when only warnings were logged, then none of them is taken for a reason', () => {
    const file = logOf('warn.log', '{"level":"warn","msg":"slow query"}\n    at Object.<anonymous> (/x.js:1:1)\nNode.js v20.20.2\n');
    expect(exitReason(file, 0)).toBeUndefined();
  });
});
