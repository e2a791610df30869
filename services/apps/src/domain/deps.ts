import type { AppTreesRepository } from '../data/app-trees.repository';
import type { AppsRepository } from '../data/apps.repository';
import type { ChannelsRepository } from '../data/channels.repository';
import type { CollaboratorsRepository } from '../data/collaborators.repository';
import type { SchemesRepository } from '../data/schemes.repository';
import type { TesterAccessRepository } from '../data/tester-access.repository';
import type { TesterDevicesRepository } from '../data/tester-devices.repository';
import type { TesterGroupsRepository } from '../data/tester-groups.repository';
import type { TestersRepository } from '../data/testers.repository';

export interface UserSummary {
  id: number;
  username: string;
  email: string;
}

/** The users service as this service needs it: who a user id is. */
export interface UserDirectory {
  /** Users that exist, by id; unknown and deleted ids are absent. */
  lookup(ids: number[]): Promise<Map<number, UserSummary>>;
}

export interface AppsDeps {
  apps: AppsRepository;
  schemes: SchemesRepository;
  channels: ChannelsRepository;
  collaborators: CollaboratorsRepository;
  /** The apps list's documents, rewritten by every write to an app, scheme or channel (app-trees.ts). */
  trees: AppTreesRepository;
  users: UserDirectory;
  testerGroups: TesterGroupsRepository;
  testers: TestersRepository;
  /** Join links, sign-in links and tester sessions (their secrets' digests). */
  testerAccess: TesterAccessRepository;
  /** Testers' registered iOS devices. */
  testerDevices: TesterDevicesRepository;
  /** How long an invitation's sign-in link works (TESTER_SIGN_IN_TTL_MS). */
  testerSignInTtlMs: number;
  testerSessionTtlMs: number;
  /** Called after a write that recorded events, so they go out at once. */
  onEventsRecorded: () => void;
}
