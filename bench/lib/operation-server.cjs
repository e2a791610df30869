// The server of bench/operation-validation.bench.mjs: gateway routes, either mounted as its
// declaration is (operations/mount.ts: the operation noted, the body read and its field types
// checked against the document and the declaration, the optional token step, the ids read) or
// with its handler alone behind express's own JSON parser. The services are stubbed with fixed
// answers, so what differs between the two modes is what the declaration adds to a request.
// Answers `cpu` over IPC with the process's CPU time so far.
//   node bench/lib/operation-server.cjs <declared|bare> <port>
const path = require('node:path');
const express = require('express');
const gateway = (p) => require(path.join(__dirname, '..', '..', 'services', 'gateway', 'dist', p));
const { mountOperations } = gateway('operations/mount');
const { rememberCaller } = gateway('http/caller-context');
const { errorHandler } = gateway('http/error-handler');
const { updateCheckOperations } = gateway('features/update-checks/update-check.operations');
const { releaseRecordOperations } = gateway('features/releases/release-records.operations');
const { uploadOperations } = gateway('features/releases/upload.operations');
const { createLogger } = require('@hangar/logger');

const [mode, port] = process.argv.slice(2);
const release = {
  id: 7, appId: 1, appName: 'Bench', bundleId: 'com.example.bench', releaseVersion: '1.2.0', buildVersion: '42', platform: 'Android', deviceType: 'Android',
  releaseType: '', source: 'api', branch: 'main', gitCommit: 'abc', ciUrl: '', size: 1000, sha256: 'a'.repeat(64), changelog: [], customFields: [], createdAtMs: Date.now(),
  context: { app: { id: 1, name: 'Bench' }, scheme: { id: 1, name: 'Adhoc' }, channel: { id: 1, name: 'Android', slug: 'bench' } },
};
const clients = {
  releases: {
    checkForUpdate: async () => ({ updateAvailable: true, mandatory: false, release }),
    updateRelease: async () => release,
  },
  debugFiles: { listBuildDebugFiles: async () => ({ builds: [] }) },
};
const updateCheck = updateCheckOperations[0];
// The edit of a release, its token step left out (no users service here): the body's types are what is measured.
const edit = { ...releaseRecordOperations.find((o) => o.operationId === 'updateRelease'), scopes: null };
// The upload's declaration as it is (a streamed multipart body, the token read by the handler), its
// handler reading the body to its end and answering 201: what the declaration adds before the stream.
const drain = async ({ req, res }) => {
  for await (const _chunk of req);
  res.status(201).json({ id: 7 });
};
const upload = { ...uploadOperations[0], handle: drain };
const dependencies = { clients, system: {}, files: {}, install: {}, publicBaseUrl: 'http://bench.example' };
const logger = createLogger({ service: 'bench', level: 'fatal' });

const app = express();
app.disable('x-powered-by');
app.use(rememberCaller);
// A signed-in caller, as the token step would leave it (the edit answers in its time zone).
app.use((req, _res, next) => {
  req.user = { id: 1, role: 'admin', timezone: 'UTC' };
  next();
});
if (mode === 'declared') {
  app.use(mountOperations([updateCheck, edit, upload], dependencies, { maxBodyBytes: 1024 * 1024 }));
} else {
  const call = (declared, params) => async (req, res) => declared.handle({ ...dependencies, params, body: req.body ?? {}, req, res });
  app.get('/api/apps/update_check', call(updateCheck, {}));
  app.post('/api/apps/upload', call(upload, {}));
  app.put('/api/releases/:id', express.json({ limit: 1024 * 1024 }), (req, res, next) => call(edit, { id: Number(req.params.id) })(req, res).catch(next));
}
app.use(errorHandler(logger));
app.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
process.on('message', (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpuMicros: user + system });
  }
});
