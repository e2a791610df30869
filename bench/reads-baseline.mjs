// The baseline of bench/reads.bench.mjs: one express process querying the
// same MongoDB collections directly with mongoose — no gateway, no gRPC hop,
// no presenters beyond JSON. What Hangar's split into services costs is the
// difference. Usage: node bench/reads-baseline.mjs <port> <mongoUrl> <dbPrefix>
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'services', 'gateway', 'package.json'));
const express = require('express');
const mongoose = require(path.join(root, 'node_modules', 'mongoose'));

const [port, mongoUrl, prefix] = process.argv.slice(2);
const appsDb = mongoose.createConnection(mongoUrl, { dbName: `${prefix}_apps`, bufferCommands: false });
const releasesDb = mongoose.createConnection(mongoUrl, { dbName: `${prefix}_releases`, bufferCommands: false });
await Promise.all([appsDb.asPromise(), releasesDb.asPromise()]);
const col = (db, name) => db.collection(name);
const LIVE = { deletedAt: { $exists: false } };

const app = express();
const channelOf = (key) => col(appsDb, 'channels').findOne({ slug: key, ...LIVE });

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
  const releases = await col(releasesDb, 'releases').find({ channelId: channel._id, versionKey: { $gt: String(req.query.version_key) }, ...LIVE }).sort({ versionKey: -1 }).limit(25).toArray();
  res.json({ channel, releases });
});

app.get('/api/apps/version_exist', async (req, res) => {
  const channel = await channelOf(req.query.channel_key);
  if (!channel) return res.status(404).json({ error: 'not found' });
  const release = await col(releasesDb, 'releases').findOne({ channelId: channel._id, bundleId: req.query.bundle_id, releaseVersion: req.query.release_version, buildVersion: req.query.build_version, ...LIVE }, { sort: { _id: -1 } });
  if (!release) return res.status(404).json({ error: 'not found' });
  res.json(release);
});

app.get('/api/apps/:id', async (req, res) => {
  const id = Number(req.params.id);
  const appDoc = await col(appsDb, 'apps').findOne({ _id: id, ...LIVE });
  if (!appDoc) return res.status(404).json({ error: 'not found' });
  const [schemes, channels, collaborators] = await Promise.all([
    col(appsDb, 'schemes').find({ appId: id, ...LIVE }).toArray(),
    col(appsDb, 'channels').find({ appId: id, ...LIVE }).toArray(),
    col(appsDb, 'collaborators').find({ appId: id }).toArray(),
  ]);
  res.json({ ...appDoc, schemes, channels, collaborators });
});

app.listen(Number(port), '127.0.0.1', () => process.stdout.write('baseline ready\n'));
