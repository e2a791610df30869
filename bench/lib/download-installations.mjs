// What the download benches do to an installation: put the Android fixture in it, load one
// URL, group its processes for CPU figures, and wait for its downloads to be counted.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { pidsByName } from './process-cpu.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const fixture = path.join(root, 'tests', 'fixtures', 'apps', 'android.apk');

/** Uploads the Android fixture (into `channelKey`'s channel, else a new app); answers the Release. */
export async function uploadFixture(hangar, channelKey) {
  const form = new FormData();
  form.append('token', hangar.adminToken);
  if (channelKey) form.append('channel_key', channelKey);
  form.append('file', new Blob([fs.readFileSync(fixture)]), 'android.apk');
  const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
  return res.json();
}

/** One autocannon run; answers its result. */
export const loadRun = (opts) => new Promise((resolve, reject) => autocannon(opts, (err, result) => (err ? reject(err) : resolve(result))));

/**
 * An installation's processes and the servers it shares, by where a download's CPU goes. Take
 * it when measuring starts: FerretDB's PostgreSQL backends come and go with connections.
 */
export const processGroups = (hangar) => ({
  gateway: hangar.pidsOf('gateway'),
  releases: hangar.pidsOf('releases'),
  'other services': ['users', 'apps', 'debug-files', 'webhooks'].flatMap((name) => hangar.pidsOf(name)),
  'ferretdb+postgres': [...pidsByName('ferretdb'), ...pidsByName('postgres')],
  'nats+versitygw': [...pidsByName('nats-server'), ...pidsByName('versitygw')],
});

/** The release's download stats (total, unique, days). */
export const releaseStats = (hangar, releaseId) =>
  fetch(`${hangar.baseUrl}/api/releases/${releaseId}/stats`, { headers: { authorization: `Bearer ${hangar.adminToken}` } }).then((r) => r.json());

/**
 * Polls the release's stats until they show `answered` downloads or stop moving for 5 s (2 min at
 * most), so a count over what was answered is seen too; answers the stats and how long it took.
 */
export async function settledCount(hangar, releaseId, answered) {
  const started = Date.now();
  let stats;
  for (let last = -1, still = 0; still < 25 && Date.now() - started < 120_000; ) {
    stats = await releaseStats(hangar, releaseId);
    if (stats.total === answered) break;
    still = stats.total === last ? still + 1 : 0;
    last = stats.total;
    await new Promise((r) => setTimeout(r, 200));
  }
  return { stats, settledMs: Date.now() - started };
}
