// The baseline of bench/reads.bench.mjs: one express process making the same
// database queries Hangar's services make for each request (the channel with
// its scheme and app, the token with its user, the same filters and sorts),
// directly with mongoose — no gateway, no gRPC hop, no presenters beyond JSON.
// What Hangar's split into services costs is the difference.
// Usage: node bench/reads-baseline.mjs <port> <mongoUrl> <dbPrefix>
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'services', 'gateway', 'package.json'));
const express = require('express');
const mongoose = require(path.join(root, 'node_modules', 'mongoose'));
const { findEach } = require(path.join(root, 'libs/mongo/dist'));

const [port, mongoUrl, prefix] = process.argv.slice(2);
const appsDb = mongoose.createConnection(mongoUrl, { dbName: `${prefix}_apps`, bufferCommands: false });
const releasesDb = mongoose.createConnection(mongoUrl, { dbName: `${prefix}_releases`, bufferCommands: false });
const usersDb = mongoose.createConnection(mongoUrl, { dbName: `${prefix}_users`, bufferCommands: false });
await Promise.all([appsDb.asPromise(), releasesDb.asPromise(), usersDb.asPromise()]);
const col = (db, name) => db.collection(name);
const LIVE = { deletedAt: { $exists: false } };

// As Hangar's users service checks a token (domain/access-tokens.ts): the
// token by its SHA-256, then its user.
async function authenticated(token) {
  const record = token && (await col(usersDb, 'tokens').findOne({ tokenHash: createHash('sha256').update(token).digest('hex') }));
  return Boolean(record && (await col(usersDb, 'users').findOne({ _id: record.userId, ...LIVE })));
}

const app = express();
// As Hangar's apps service resolves a channel key (domain/channel-lookup.ts):
// the channel, then its scheme and app, which must still exist.
async function channelOf(key) {
  const channel = await col(appsDb, 'channels').findOne({ slug: key, ...LIVE });
  if (!channel) return null;
  const [scheme, app] = await Promise.all([
    col(appsDb, 'schemes').findOne({ _id: channel.schemeId, ...LIVE }),
    col(appsDb, 'apps').findOne({ _id: channel.appId, ...LIVE }),
  ]);
  return scheme && app ? { ...channel, scheme, app } : null;
}

app.get('/api/apps/versions', async (req, res) => {
  const channel = await channelOf(req.query.channel_key);
  if (!channel) return res.status(404).json({ error: 'not found' });
  const filter = { channelId: channel._id, ...LIVE };
  const [releases, total] = await Promise.all([col(releasesDb, 'releases').find(filter).sort({ _id: -1 }).limit(25).toArray(), col(releasesDb, 'releases').countDocuments(filter)]);
  res.setHeader('X-Total-Count', String(total));
  res.json({ channel, releases });
});

app.get('/api/apps/latest', async (req, res) => {
  const channel = await channelOf(req.query.channel_key);
  if (!channel) return res.status(404).json({ error: 'not found' });
  const filter = { channelId: channel._id, versionKey: { $gt: String(req.query.version_key) }, ...LIVE };
  const [releases, total] = await Promise.all([col(releasesDb, 'releases').find(filter).sort({ versionKey: -1, _id: -1 }).limit(25).toArray(), col(releasesDb, 'releases').countDocuments(filter)]);
  res.setHeader('X-Total-Count', String(total));
  res.json({ channel, releases });
});

app.get('/api/apps/version_exist', async (req, res) => {
  const channel = await channelOf(req.query.channel_key);
  if (!channel) return res.status(404).json({ error: 'not found' });
  const release = await col(releasesDb, 'releases').findOne({ channelId: channel._id, bundleId: req.query.bundle_id, releaseVersion: req.query.release_version, buildVersion: req.query.build_version, ...LIVE }, { sort: { _id: -1 } });
  if (!release) return res.status(404).json({ error: 'not found' });
  res.json(release);
});

// bench/apps-list.bench.mjs: an admin's page of apps, with the same queries as Hangar's apps
// service (domain/manage-apps.ts listApps): the page of the apps' trees (each app with its
// schemes and channels, data/app-tree.model.ts) and their count.
app.get('/api/apps', async (req, res) => {
  if (!(await authenticated(String(req.query.token ?? '')))) return res.status(401).json({ error: 'unauthorized' });
  const perPage = Math.min(100, Math.max(1, Number(req.query.per_page) || 25));
  const page = Math.max(1, Number(req.query.page) || 1);
  const [trees, total] = await Promise.all([
    col(appsDb, 'app_trees').find({}).sort({ createdAt: -1, _id: -1 }).skip((page - 1) * perPage).limit(perPage).toArray(),
    col(appsDb, 'app_trees').countDocuments({}),
  ]);
  const present = (c) => ({ id: c._id, name: c.name, slug: c.slug, device_type: c.deviceType, bundle_id: c.bundleId, git_url: c.gitUrl ?? null, has_password: c.hasPassword, min_supported_version: c.minSupportedVersion || null });
  res.setHeader('X-Total-Count', String(total));
  res.json(
    trees.map((t) => ({
      id: t._id,
      name: t.name,
      schemes: t.schemes.map((s) => ({ id: s._id, name: s.name, new_build_callout: s.newBuildCallout, retained_builds: s.retainedBuilds, channels: s.channels.map(present) })),
    })),
  );
});

app.get('/api/apps/:id', async (req, res) => {
  // The same queries as Hangar's apps service (domain/views.ts): schemes and
  // channels by their parents (one equality query per parent, as @hangar/mongo's
  // findEach: FerretDB serves no $in from an index), collaborators with their users.
  if (!(await authenticated(String(req.query.token ?? '')))) return res.status(401).json({ error: 'unauthorized' });
  const id = Number(req.params.id);
  const appDoc = await col(appsDb, 'apps').findOne({ _id: id, ...LIVE });
  if (!appDoc) return res.status(404).json({ error: 'not found' });
  const [schemes, collaborators] = await Promise.all([
    col(appsDb, 'schemes').find({ appId: id, ...LIVE }).sort({ _id: 1 }).toArray(),
    col(appsDb, 'collaborators').find({ appId: id }).sort({ _id: 1 }).toArray(),
  ]);
  const [channels, users] = await Promise.all([
    findEach(schemes.map((s) => s._id), (schemeId) => col(appsDb, 'channels').find({ schemeId, ...LIVE }).toArray()),
    findEach(collaborators.map((c) => c.userId), (_id) => col(usersDb, 'users').find({ _id, ...LIVE }).toArray()),
  ]);
  res.json({ ...appDoc, schemes, channels, collaborators, users: users.map((u) => ({ id: u._id, username: u.username, email: u.email })) });
});

app.listen(Number(port), '127.0.0.1', () => process.stdout.write('baseline ready\n'));
