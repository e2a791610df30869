import type { AppDocument } from '../data/app.model';
import type { AppTree, AppTreeDocument, ChannelBranch, SchemeBranch } from '../data/app-tree.model';
import type { ChannelDocument } from '../data/channel.model';
import type { SchemeDocument } from '../data/scheme.model';
import type { AppsDeps } from './deps';

/** The most rounds a refresh takes before it gives up: each is lost only to another refresh that wrote meanwhile. */
const MAX_ROUNDS = 20;

/** Refreshes the repair at start runs at once. */
const REPAIRS_AT_ONCE = 8;

/**
 * Brings the app's tree (data/app-tree.model.ts) in line with its app, live schemes and live
 * channels; called by every use case that wrote one of them, before it answers, so the next
 * list shows the write. Removes the tree of an app that is gone.
 *
 * FerretDB 1.24 has no transactions and no atomic read-modify-write, so two refreshes of one
 * app may interleave: each reads the stored tree first, then the sources, and returns only when
 * the two agree — a refresh that read the sources before another write landed finds the
 * difference on its next round and writes again. A rewrite names the revision it read, so one
 * built from older reads writes nothing once a newer one is stored.
 */
export async function refreshAppTree(deps: AppsDeps, appId: number): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const stored = await deps.trees.findById(appId);
    const wanted = await currentTree(deps, appId);
    if (!wanted) {
      if (stored) await deps.trees.remove(appId);
      return; // a deleted app never comes back: nothing can make its tree wanted again
    }
    if (stored && sameTree(stored, wanted)) return;
    await deps.trees.write(wanted, stored?.revision);
  }
  throw new Error(`The list entry of app ${appId} kept changing under ${MAX_ROUNDS} refreshes`);
}

/**
 * At start: every tree that differs from its app (an app written by a version before trees, or
 * a process that stopped between a write and its refresh) is refreshed, and the trees of apps
 * that are gone removed. One read of each collection decides which; each refresh reads again.
 * Returns how many were refreshed.
 */
export async function repairAppTrees(deps: AppsDeps): Promise<number> {
  const [apps, schemes, channels, trees] = await Promise.all([deps.apps.allLive(), deps.schemes.allLive(), deps.channels.allLive(), deps.trees.all()]);
  const wanted = new Map(treesOf(apps, schemes, channels).map((t) => [t._id, t]));
  const stale = new Set<number>();
  for (const tree of trees) {
    const want = wanted.get(tree._id);
    if (!want || !sameTree(tree, want)) stale.add(tree._id);
    wanted.delete(tree._id);
  }
  for (const id of wanted.keys()) stale.add(id);
  // A few at a time: the first start after an upgrade refreshes every app, before the service answers.
  const queue = [...stale];
  await Promise.all(Array.from({ length: Math.min(REPAIRS_AT_ONCE, queue.length) }, async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) await refreshAppTree(deps, id);
  }));
  return stale.size;
}

async function currentTree(deps: AppsDeps, appId: number): Promise<AppTree | undefined> {
  const [app, schemes, channels] = await Promise.all([deps.apps.findById(appId), deps.schemes.listByApps([appId]), deps.channels.listByApp(appId)]);
  return app ? treesOf([app], schemes, channels)[0] : undefined;
}

/** Each app's tree: its live schemes by id, each with its live channels by id (as the app's own answer lists them). */
export function treesOf(apps: AppDocument[], schemes: SchemeDocument[], channels: ChannelDocument[]): AppTree[] {
  const bySchemeId = new Map<number, ChannelBranch[]>();
  for (const c of [...channels].sort((a, b) => a._id - b._id)) {
    const branches = bySchemeId.get(c.schemeId) ?? [];
    branches.push(channelBranch(c));
    bySchemeId.set(c.schemeId, branches);
  }
  const byAppId = new Map<number, SchemeBranch[]>();
  for (const s of [...schemes].sort((a, b) => a._id - b._id)) {
    const branches = byAppId.get(s.appId) ?? [];
    branches.push({ _id: s._id, appId: s.appId, name: s.name, newBuildCallout: s.newBuildCallout, retainedBuilds: s.retainedBuilds, channels: bySchemeId.get(s._id) ?? [] });
    byAppId.set(s.appId, branches);
  }
  return apps.map((a) => ({ _id: a._id, name: a.name, createdAt: a.createdAt, schemes: byAppId.get(a._id) ?? [] }));
}

function channelBranch(c: ChannelDocument): ChannelBranch {
  return {
    _id: c._id,
    schemeId: c.schemeId,
    name: c.name,
    slug: c.slug,
    deviceType: c.deviceType,
    bundleId: c.bundleId,
    gitUrl: c.gitUrl ?? null,
    minSupportedVersion: c.minSupportedVersion ?? null,
    hasPassword: Boolean(c.passwordHash),
  };
}

/** Field by field, in one order: a stored document's keys may come back in another. */
function sameTree(a: AppTree, b: AppTree): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(t: AppTree | AppTreeDocument): unknown {
  return [
    t._id,
    t.name,
    new Date(t.createdAt).getTime(),
    t.schemes.map((s) => [
      s._id,
      s.appId,
      s.name,
      s.newBuildCallout,
      s.retainedBuilds,
      s.channels.map((c) => [c._id, c.schemeId, c.name, c.slug, c.deviceType, c.bundleId, c.gitUrl ?? null, c.minSupportedVersion ?? null, c.hasPassword]),
    ]),
  ];
}
