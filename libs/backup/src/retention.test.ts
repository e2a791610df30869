import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backupFolderName } from './backup';
import { COMPLETION_FILE } from './layout';
import { pruneBackups } from './retention';

describe('pruneBackups', () => {
  let parent: string;
  beforeEach(() => (parent = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-retention-'))));
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  const make = (day: number, complete: boolean) => {
    const name = backupFolderName(new Date(Date.UTC(2026, 0, day)));
    fs.mkdirSync(path.join(parent, name));
    if (complete) fs.writeFileSync(path.join(parent, name, COMPLETION_FILE), '{}');
    return name;
  };

  it('when there are more complete backups than kept, then the oldest go, with unfinished runs older than the newest complete one; a newer unfinished run and other folders stay', () => {
    const [d1, d2, d3, d4] = [make(1, true), make(2, false), make(3, true), make(4, true)];
    const running = make(5, false);
    fs.mkdirSync(path.join(parent, 'notes'));

    const pruned = pruneBackups(parent, 2);

    expect(pruned).toEqual({ removed: [d1], removedIncomplete: [d2] });
    expect(fs.readdirSync(parent).sort()).toEqual([d3, d4, running, 'notes'].sort());
  });

  it('when no backup is complete yet, then nothing is removed', () => {
    const unfinished = make(1, false);
    expect(pruneBackups(parent, 1)).toEqual({ removed: [], removedIncomplete: [] });
    expect(fs.readdirSync(parent)).toEqual([unfinished]);
  });

  it('when keep is not a whole number of at least 1, then it throws and removes nothing', () => {
    make(1, true);
    expect(() => pruneBackups(parent, 0)).toThrow(/at least 1/);
    expect(fs.readdirSync(parent)).toHaveLength(1);
  });
});
