import { AlreadyExists, InvalidArgument } from '@hangar/errors';
import { isDuplicateKeyError } from '@hangar/mongo';
import type { AppDocument } from '../data/app.model';
import { refreshAppTree } from './app-trees';
import type { AppsDeps } from './deps';
import type { ChannelContextView } from './channel-lookup';
import { ANY_BUNDLE_ID, DEVICE_TYPES, parseDeviceType, validateAppName } from './fields';
import { Actor, requireCanCreateApp, withinTokenApps } from './permissions';
import { generateSlug } from './secrets';

export const UPLOAD_SCHEME_NAME = 'Adhoc';

/**
 * Upload without a channel key (PRODUCT §3): the app of that exact name among
 * the apps the actor administers (as a collaborator), else a new one; its
 * `Adhoc` scheme; its channel for the platform. Each is reused when it
 * exists. Concurrent uploads meet on unique keys, so they create one of each.
 *
 * The channel's bundle id rule is `*`: an auto-made channel accepts every
 * package id, as a channel made by hand does by default. `bundleId` is kept
 * in the contract for a stricter rule later.
 */
export async function ensureUploadChannel(deps: AppsDeps, actor: Actor, appName: string, deviceType: string, _bundleId: string): Promise<ChannelContextView> {
  const name = validateAppName(appName);
  const device = parseDeviceType(deviceType);
  if (!device) throw InvalidArgument.field('device_type', `must be one of ${Object.keys(DEVICE_TYPES).join(', ')}`);

  // What this upload made (or tried to, when a concurrent one made it first) goes into the
  // apps list before the answer; an upload into an existing channel writes nothing here.
  let made = false;
  const making = <T>(create: () => Promise<T>) => () => {
    made = true;
    return create();
  };
  const app = await ensureApp(deps, actor, name, () => (made = true));
  const scheme = await createOnce(
    () => deps.schemes.findNamed(app._id, UPLOAD_SCHEME_NAME),
    making(() => deps.schemes.create({ appId: app._id, name: UPLOAD_SCHEME_NAME, newBuildCallout: true, retainedBuilds: 0 }, `upload:${app._id}`)),
    () => deps.schemes.findByEnsureKey(`upload:${app._id}`),
  );
  const channel = await createOnce(
    () => deps.channels.findForDevice(scheme._id, device),
    making(() =>
      deps.channels.create(
        { schemeId: scheme._id, appId: app._id, name: DEVICE_TYPES[device], slug: generateSlug(), deviceType: device, bundleId: ANY_BUNDLE_ID, gitUrl: null, passwordHash: null },
        `upload:${scheme._id}:${device}`,
      ),
    ),
    () => deps.channels.findByEnsureKey(`upload:${scheme._id}:${device}`),
  );
  // A channel a concurrent upload made may not be listed yet (that upload refreshes after its
  // writes): one read of the tree tells, and this answer waits for it too.
  if (made || !(await listsChannel(deps, app._id, channel._id))) await refreshAppTree(deps, app._id);
  return { app, scheme, channel };
}

async function listsChannel(deps: AppsDeps, appId: number, channelId: number): Promise<boolean> {
  const tree = await deps.trees.findById(appId);
  return Boolean(tree?.schemes.some((s) => s.channels.some((c) => c._id === channelId)));
}

async function ensureApp(deps: AppsDeps, actor: Actor, name: string, onCreate: () => void): Promise<AppDocument> {
  // A token limited to some apps finds only those; it cannot create one (requireCanCreateApp).
  const administered = withinTokenApps(actor, await deps.collaborators.appIdsOf(actor.userId, 'admin'))!;
  const existing = (await deps.apps.findNamedAmong(name, administered))[0];
  if (existing) return existing;
  requireCanCreateApp(actor);
  onCreate();
  const key = `upload:${actor.userId}:${name}`;
  let app: AppDocument;
  try {
    app = await deps.apps.create(name, key);
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    // A concurrent upload of this user made it (its admin row may still be
    // on its way). If instead it is an app an earlier upload made that they
    // no longer administer, it is not theirs: this upload gets a new one.
    const other = await deps.apps.findByEnsureKey(key);
    const members = other ? await deps.collaborators.listByApp(other._id) : [];
    const ours = members.length === 0 || members.some((m) => m.userId === actor.userId && m.role === 'admin');
    app = other && ours ? other : await deps.apps.create(name);
  }
  await deps.collaborators.add(app._id, actor.userId, 'admin').catch((err: unknown) => {
    // A concurrent upload of the same user added them first.
    if (!(err instanceof AlreadyExists)) throw err;
  });
  return app;
}

/** Find, else create; when a concurrent caller created it first (unique key), use theirs. */
async function createOnce<T>(find: () => Promise<T | null>, create: () => Promise<T>, findCreated: () => Promise<T | null>): Promise<T> {
  const found = await find();
  if (found) return found;
  try {
    return await create();
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    const theirs = await findCreated();
    if (!theirs) throw err;
    return theirs;
  }
}
