import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BACKUP_FORMAT, BackupRefused, COMPLETION_FILE, type Completion, MANIFEST_FILE, type Manifest, hashFile, objectFile } from './layout';
import { objectEntries } from './object-copy';

/** At most this many problems are named in a refusal; the count says how many there were. */
const NAMED_PROBLEMS = 5;

function readJson<T>(file: string, what: string): T {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch (err) {
    throw new BackupRefused(`${what} (${file}) cannot be read as JSON: ${(err as Error).message}. The backup is damaged and is not restored.`);
  }
}

/**
 * Checks a backup folder before anything is restored from it: its completion marker (written
 * last: without it the backup stopped halfway), the manifest against the marker's hash, and every
 * file the manifest lists against its size and hash — each read as a stream. Throws
 * BackupRefused naming what is wrong; answers the manifest when all of it holds.
 */
export async function verifyBackup(folder: string): Promise<Manifest> {
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new BackupRefused(`${folder} is not a folder: give the folder of one backup (hangar-backup-…).`);
  const markerFile = path.join(folder, COMPLETION_FILE);
  if (!fs.existsSync(markerFile)) {
    throw new BackupRefused(
      `${folder} has no ${COMPLETION_FILE}: this backup did not finish (it was interrupted, or is still being written) and is never restored. Restore an earlier complete backup.`,
    );
  }
  const completion = readJson<Completion>(markerFile, 'The completion marker');
  if (completion.format !== BACKUP_FORMAT || typeof completion.manifestSha256 !== 'string') {
    throw new BackupRefused(`${markerFile} is not a completion marker of format ${BACKUP_FORMAT}: the backup is not restored.`);
  }
  const manifestFile = path.join(folder, MANIFEST_FILE);
  if (!fs.existsSync(manifestFile)) throw new BackupRefused(`${folder} has a completion marker but no ${MANIFEST_FILE}: the backup is damaged and is not restored.`);
  const manifestSha256 = crypto.createHash('sha256').update(fs.readFileSync(manifestFile)).digest('hex');
  if (manifestSha256 !== completion.manifestSha256) {
    throw new BackupRefused(`${manifestFile} does not match its completion marker (sha256 ${manifestSha256}, the marker says ${completion.manifestSha256}): the backup was altered and is not restored.`);
  }
  const manifest = readJson<Manifest>(manifestFile, 'The manifest');

  const problems: string[] = [];
  const check = async (relative: string, expected: { sha256: string; size: number }, label = relative) => {
    const file = path.join(folder, relative);
    if (!fs.existsSync(file)) return problems.push(`${label} is missing`);
    const actual = await hashFile(file);
    if (actual.size !== expected.size || actual.sha256 !== expected.sha256) {
      problems.push(`${label} holds ${actual.size} bytes with sha256 ${actual.sha256}, the manifest lists ${expected.size} bytes with sha256 ${expected.sha256}`);
    }
  };
  for (const database of manifest.databases) {
    for (const collection of database.collections) await check(collection.file, { sha256: collection.sha256, size: collection.bytes });
  }
  const objectsList = path.join(folder, manifest.objects.file);
  const listHash = fs.existsSync(objectsList) ? (await hashFile(objectsList)).sha256 : undefined;
  if (listHash !== manifest.objects.sha256) problems.push(`${manifest.objects.file} ${listHash ? `has sha256 ${listHash}, the manifest lists ${manifest.objects.sha256}` : 'is missing'}`);
  else {
    let count = 0;
    for await (const entry of objectEntries(folder)) {
      count += 1;
      await check(objectFile(entry.sha256), entry, `${objectFile(entry.sha256)} (object ${entry.key})`);
    }
    if (count !== manifest.objects.count) problems.push(`${manifest.objects.file} lists ${count} objects, the manifest ${manifest.objects.count}`);
  }
  if (problems.length > 0) {
    const named = problems.slice(0, NAMED_PROBLEMS).map((p) => `  - ${p}`).join('\n');
    const more = problems.length > NAMED_PROBLEMS ? `\n  … and ${problems.length - NAMED_PROBLEMS} more` : '';
    throw new BackupRefused(`${folder} does not match its manifest (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was restored:\n${named}${more}`);
  }
  return manifest;
}
