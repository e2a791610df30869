import type { Connection } from 'mongoose';
import { GENERATION_KEYS, Generations, ValidatedCache, bumpAfterWrites, bumpingQuietly, openGenerations } from '@hangar/cache';
import type { OutboxRelay } from '@hangar/events';
import { type ShutdownRegistry, createServiceClient } from '@hangar/grpc';
import { startService } from '@hangar/service';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { apps, users } from '@hangar/proto';
import { UsersDirectory } from './clients/users.directory';
import type { AppsConfig } from './config';
import { appModel } from './data/app.model';
import { appTreeModel } from './data/app-tree.model';
import { AppTreesRepository } from './data/app-trees.repository';
import { AppsRepository } from './data/apps.repository';
import { channelModel } from './data/channel.model';
import { ChannelsRepository } from './data/channels.repository';
import { collaboratorModel } from './data/collaborator.model';
import { CollaboratorsRepository } from './data/collaborators.repository';
import { schemeModel } from './data/scheme.model';
import { SchemesRepository } from './data/schemes.repository';
import type { AppsDeps } from './domain/deps';
import { repairAppTrees } from './domain/app-trees';
import { userDeletedConsumer } from './events/user-deleted.consumer';
import { LegacyWebhooksRepository } from './data/legacy-webhooks.repository';
import { appsHandlers } from './grpc/apps.handlers';
import { TESTER_RPCS } from './grpc/tester.handlers';
import { testerAccessModels } from './data/tester-access.model';
import { TesterAccessRepository } from './data/tester-access.repository';
import { testerGroupModel } from './data/tester-group.model';
import { TesterGroupsRepository } from './data/tester-groups.repository';
import { testerModel } from './data/tester.model';
import { TestersRepository } from './data/testers.repository';
import { testerDeviceModel } from './data/tester-device.model';
import { TesterDevicesRepository } from './data/tester-devices.repository';

export interface RunningAppsService {
  port: number;
  deps: AppsDeps;
  connection: Connection;
  relay: OutboxRelay;
  /** Every part in phase order (the skeleton's ShutdownRegistry): gRPC, consumers, outbox, NATS, MongoDB. */
  stop(): Promise<void>;
}

/**
 * GetApp answered from memory while the apps and users generations are
 * unchanged: the permission check, the app's schemes, channels and
 * collaborators, and the collaborators' names from the users service are all
 * read again after any write to either. Keyed by the caller too, since what
 * the permission check decides depends on who asks.
 *
 * ListApps pages likewise, while the apps generation is unchanged (a page holds
 * no collaborators, and which apps a user sees changes only through writes
 * here): the console's first page, 100 apps with their schemes and channels,
 * is read by every console that opens, and FerretDB reads every app's tree to
 * answer a page of them (it cannot push the sort and limit down). Weighed by
 * their apps, against the same capacity.
 */
function cachingAppViews(handlers: apps.AppsServiceImplementation, generations: Generations, config: AppsConfig): apps.AppsServiceImplementation {
  if (config.APP_VIEW_CACHE_SIZE === 0) return handlers;
  const views = new ValidatedCache<apps.App>({ generations, capacity: config.APP_VIEW_CACHE_SIZE, maxAgeMs: config.CACHE_MAX_AGE_MS });
  const pages = new ValidatedCache<apps.AppList>({ generations, capacity: config.APP_VIEW_CACHE_SIZE, maxAgeMs: config.CACHE_MAX_AGE_MS, weigh: (list) => list.apps.length + 1 });
  const getApp = handlers.getApp.bind(handlers);
  const listApps = handlers.listApps.bind(handlers);
  const callerKey = (actor: apps.ListAppsRequest['actor']) => `${actor?.userId ?? 0}:${actor?.role ?? ''}:${actor?.appLimit?.appIds.join(',') ?? '*'}`;
  return {
    ...handlers,
    // Keyed by everything that decides the answer: a token limited to other
    // apps must not be served what its user's unlimited token was.
    getApp: (req, context) =>
      views.get(
        `${callerKey(req.actor)}:${req.id}`,
        [GENERATION_KEYS.apps, GENERATION_KEYS.users],
        async () => getApp(req, context),
      ),
    listApps: (req, context) => pages.get(`${callerKey(req.actor)}:${req.page?.page ?? 0}:${req.page?.perPage ?? 0}`, [GENERATION_KEYS.apps], async () => listApps(req, context)),
  };
}

/** RPCs that never write; every other one bumps the apps generation. */
const APPS_READ_ONLY = new Set([
  'getApp',
  'listApps',
  'getScheme',
  'listSchemes',
  'getChannel',
  'listChannels',
  'listCollaborators',
  'getCollaborator',
  'resolveChannel',
  'checkPermission',
  'verifyChannelPassword',
  'describeApp',
  // A stream: passed through as it is (the wrapper awaits a single answer), and it writes nothing.
  'exportLegacyWebhooks',
  // Tester groups, testers and their links and sessions: no cache anywhere holds them (a tester's
  // reach is read on every use), so their writes need no bump.
  ...TESTER_RPCS,
]);

/** Wires the apps service on the service skeleton: database, events, users client, gRPC. main.ts and the component tests both start it here. */
export async function startAppsService(config: AppsConfig, logger: Logger, metrics?: Metrics, options: { shutdown?: ShutdownRegistry } = {}): Promise<RunningAppsService> {
  return startService({ name: 'apps', config, logger, metrics, shutdown: options.shutdown }, async (service) => {
    const { connection, appDocs, schemeDocs, channelDocs, collaboratorDocs, treeDocs, groupDocs, testerDocs, accessDocs, deviceDocs } = await service.connectMongo((c) => ({
      appDocs: appModel(c),
      schemeDocs: schemeModel(c),
      channelDocs: channelModel(c),
      collaboratorDocs: collaboratorModel(c),
      treeDocs: appTreeModel(c),
      groupDocs: testerGroupModel(c),
      testerDocs: testerModel(c),
      accessDocs: testerAccessModels(c),
      deviceDocs: testerDeviceModel(c),
    }));
    const events = await service.startEvents({ outboxOf: [appDocs, schemeDocs, channelDocs, testerDocs] });
    const { relay } = events;

    const usersClient = createServiceClient(users.UsersServiceDefinition, config.USERS_GRPC_TARGET, { defaultDeadlineMs: config.GRPC_DEADLINE_MS, metrics });
    const deps: AppsDeps = {
      apps: new AppsRepository(connection, appDocs),
      schemes: new SchemesRepository(connection, schemeDocs),
      channels: new ChannelsRepository(connection, channelDocs),
      collaborators: new CollaboratorsRepository(connection, collaboratorDocs),
      trees: new AppTreesRepository(treeDocs),
      users: new UsersDirectory(usersClient),
      testerGroups: new TesterGroupsRepository(connection, groupDocs),
      testers: new TestersRepository(connection, testerDocs),
      testerAccess: new TesterAccessRepository(connection, accessDocs),
      testerDevices: new TesterDevicesRepository(connection, deviceDocs),
      testerSignInTtlMs: config.TESTER_SIGN_IN_TTL_MS,
      testerSessionTtlMs: config.TESTER_SESSION_TTL_MS,
      onEventsRecorded: () => relay.poke(),
    };

    // Releases caches channel contexts: every write here is seen by its next request on any replica.
    const generations = await openGenerations(events.bus.nc, config.NATS_SUBJECT_PREFIX);
    const bump = bumpingQuietly(generations, [GENERATION_KEYS.apps], (err) => logger.warn({ err }, 'Could not bump the apps generation; retrying'));

    await events.consume(userDeletedConsumer(deps.collaborators, bump));

    // Before the first answer: the apps list is read from the apps' trees, and an app written by a
    // version without them, or by a process stopped between a write and its tree, would be missing.
    const repaired = await repairAppTrees(deps);
    if (repaired > 0) logger.info({ repaired }, 'Brought the apps list up to date with the apps');

    const legacyWebhooks = new LegacyWebhooksRepository(connection);
    service.serve(apps.AppsServiceDefinition, bumpAfterWrites(cachingAppViews(appsHandlers(deps, legacyWebhooks), generations, config), APPS_READ_ONLY, bump));
    return { deps, connection, relay };
  });
}
