#!/usr/bin/env node
// Telling a big tester group of a new build (#36's bench): does a group of 10,000 testers slow
// the upload's answer, and how long until every one of them has the e-mail?
//
// One installation, a local SMTP server (smtp-server) counting what arrives. A0: BENCH_UPLOADS
// uploads on the fresh installation, before any tester exists (a reference). Then a group opening
// one channel gets BENCH_TESTERS testers (1,000 per request; each is mailed an invitation, whose
// delivery is timed). Then BENCH_UPLOADS rounds of A: an upload into a channel of the same app that
// no group opens, and B: an upload into the group's channel, its e-mails all received before the
// next round — so A and B meet the same database and the same aftermath of the last burst, and B/A
// is what telling 10,000 testers costs the answer. C: one more build there, and while its e-mails
// go out, uploads into the channel nobody is told of: what a mail burst costs other requests on
// the same cores. Prints the medians, B/A, C/A and B/A0, and per build how long its e-mails took.
//   node bench/tester-notifications.bench.mjs
//   BENCH_TESTERS=2000 BENCH_UPLOADS=3 node bench/tester-notifications.bench.mjs
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchInfrastructure } from './lib/bench-infrastructure.mjs';
import { uploadFixture } from './lib/download-installations.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
const { startHangar } = require(path.join(root, 'libs/testing/dist'));
const { SMTPServer } = require('smtp-server');

const TESTERS = Number(process.env.BENCH_TESTERS ?? 10_000);
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 3);
const PER_REQUEST = 1_000;

const infra = await benchInfrastructure(root);

// The sink: counts e-mails by the release they announce (or as invitations), with when the last came.
const received = { invitations: 0, lastInvitationAt: 0, builds: new Map() };
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, _session, callback) {
    let head = '';
    stream.on('data', (chunk) => {
      if (head.length < 4096) head += chunk.toString('latin1');
    });
    stream.on('end', () => {
      const build = /\/releases\/(\d+)/.exec(head.includes('New build of') ? head : '');
      const now = Date.now();
      if (head.includes('Subject: You are invited')) {
        received.invitations += 1;
        received.lastInvitationAt = now;
      } else if (build) {
        const entry = received.builds.get(build[1]) ?? { count: 0, lastAt: 0 };
        received.builds.set(build[1], { count: entry.count + 1, lastAt: now });
      }
      callback();
    });
  },
});
await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const hangar = await startHangar({ SMTP_URL: `smtp://127.0.0.1:${smtp.server.address().port}`, LOG_LEVEL: 'warn' });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const api = async (method, url, body) => {
  const res = await fetch(`${hangar.baseUrl}${url}`, { method, headers: { authorization: `Bearer ${hangar.adminToken}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
};
const timedUpload = async (channelKey) => {
  const started = process.hrtime.bigint();
  const release = await uploadFixture(hangar, channelKey);
  return { id: release.id, ms: Number(process.hrtime.bigint() - started) / 1e6, answeredAt: Date.now() };
};

/** Waits until every tester has the e-mail of these builds (or the deadline passes); answers when the last came. */
const allMailed = async (uploads) => {
  const deadline = Date.now() + Number(process.env.BENCH_DEADLINE_S ?? 900) * 1000;
  while (uploads.some((u) => (received.builds.get(String(u.id))?.count ?? 0) < TESTERS) && Date.now() < deadline) await sleep(200);
};
const mailedLine = (u) => {
  const got = received.builds.get(String(u.id)) ?? { count: 0, lastAt: u.answeredAt };
  return `build ${u.id}: ${got.count} of ${TESTERS} e-mails, the last ${got.lastAt - u.answeredAt} ms after its upload was answered (${((got.count / Math.max(1, got.lastAt - u.answeredAt)) * 1000).toFixed(0)}/s)`;
};
const medianMs = (arm) => median(arm.map((u) => u.ms));

try {
  const first = await uploadFixture(hangar);
  const channelKey = first.channel.slug;
  const app = await api('GET', `/api/apps/${first.app.id}`);
  const channelId = app.schemes[0].channels[0].id;
  // A channel of the same app that no group opens: uploads into it tell nobody.
  const quiet = await api('POST', `/api/schemes/${app.schemes[0].id}/channels`, { name: 'Quiet', device_type: 'android' });
  await timedUpload(channelKey); // warm
  await timedUpload(quiet.slug);

  // A0: the answer on the fresh installation, nobody to tell (a reference for what 10,000 testers in the database cost).
  const fresh = [];
  for (let i = 0; i < UPLOADS; i++) fresh.push(await timedUpload(channelKey));

  const group = await api('POST', `/api/apps/${first.app.id}/tester_groups`, { name: 'Bench', channel_ids: [channelId] });
  const invitedFrom = Date.now();
  for (let i = 0; i < TESTERS; i += PER_REQUEST) {
    const emails = Array.from({ length: Math.min(PER_REQUEST, TESTERS - i) }, (_, j) => `tester${i + j}@bench.example`).join('\n');
    await api('POST', `/api/apps/${first.app.id}/tester_groups/${group.id}/testers`, { emails });
  }
  const addedMs = Date.now() - invitedFrom;
  const invitationsDeadline = Date.now() + Number(process.env.BENCH_DEADLINE_S ?? 900) * 1000;
  while (received.invitations < TESTERS && Date.now() < invitationsDeadline) await sleep(200);
  const invitationsMs = received.lastInvitationAt - invitedFrom;

  // Rounds of A (nobody to tell) and B (its 10,000 testers told; the e-mails go after the answer,
  // from the outbox), each B's e-mails all received before the next round.
  const alone = [];
  const withGroup = [];
  for (let i = 0; i < UPLOADS; i++) {
    alone.push(await timedUpload(quiet.slug));
    const upload = await timedUpload(channelKey);
    withGroup.push(upload);
    await allMailed([upload]);
  }

  // C: answers of uploads that tell nobody, taken while an earlier build's 10,000 e-mails go out on the same cores.
  const trigger = await timedUpload(channelKey);
  const sharing = [];
  for (let i = 0; i < UPLOADS; i++) sharing.push(await timedUpload(quiet.slug));
  await allMailed([trigger]);

  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  const list = (arm) => arm.map((u) => u.ms.toFixed(0)).join(', ');
  console.log(`\nTester notifications: ${TESTERS} testers in one group, ${UPLOADS} uploads per arm; ${os.cpus().length} cores (${os.cpus()[0]?.model}), load ${load}`);
  console.log(`  A0 upload answer, fresh installation, no testers:    median ${medianMs(fresh).toFixed(0)} ms  (${list(fresh)})`);
  console.log(`  A upload answer, nobody to tell (rounds with B):      median ${medianMs(alone).toFixed(0)} ms  (${list(alone)})`);
  console.log(`  B upload answer, its ${TESTERS} testers told:          median ${medianMs(withGroup).toFixed(0)} ms  (${list(withGroup)})  B/A ${(medianMs(withGroup) / medianMs(alone)).toFixed(2)}x, B/A0 ${(medianMs(withGroup) / medianMs(fresh)).toFixed(2)}x`);
  console.log(`  C upload answer while a build's e-mails go out:       median ${medianMs(sharing).toFixed(0)} ms  (${list(sharing)})  C/A ${(medianMs(sharing) / medianMs(alone)).toFixed(2)}x`);
  console.log(`  ${TESTERS} testers added in ${addedMs} ms; ${received.invitations} of their ${TESTERS} invitations received, the last ${invitationsMs} ms after the first request`);
  for (const u of [...withGroup, trigger]) console.log(`  ${mailedLine(u)}`);
} finally {
  await hangar.stop();
  smtp.close();
  await infra.stop();
}
