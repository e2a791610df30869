import fs from 'node:fs';
import path from 'node:path';
import { BACKUP_FOLDER_PREFIX, COMPLETION_FILE } from './layout';

export interface Pruned {
  /** Complete backups past the newest `keep`. */
  removed: string[];
  /** Folders of backups that never finished, older than the newest complete one. */
  removedIncomplete: string[];
}

/**
 * Keeps the newest `keep` complete backups in `parent` and removes the older ones, with the
 * folders of runs that stopped halfway before the newest complete backup (a run newer than it
 * may still be writing, and is left alone). Only folders named as `backup` names them are
 * looked at: anything else an operator keeps there stays.
 */
export function pruneBackups(parent: string, keep: number): Pruned {
  if (!Number.isInteger(keep) || keep < 1) throw new Error(`keep must be a whole number of at least 1, not ${keep}`);
  const folders = fs
    .readdirSync(parent, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name.startsWith(BACKUP_FOLDER_PREFIX))
    .map((e) => e.name)
    .sort()
    .reverse();
  const complete = folders.filter((name) => fs.existsSync(path.join(parent, name, COMPLETION_FILE)));
  const newestComplete = complete[0];
  const removed = complete.slice(keep);
  const removedIncomplete = newestComplete ? folders.filter((name) => !complete.includes(name) && name < newestComplete) : [];
  for (const name of [...removed, ...removedIncomplete]) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  return { removed, removedIncomplete };
}
