import type { ServiceClient } from '@hangar/grpc';
import type { Logger } from '@hangar/logger';
import type { apps } from '@hangar/proto';
import type { ObjectStorage } from '@hangar/storage';
import type { DebugFilesRepository } from '../data/debug-files.repository';
import type { ReadArchive } from '../parsing/debug-archive.reader';

export type AppsClient = ServiceClient<typeof apps.AppsServiceDefinition>;

export interface DebugFilesDeps {
  files: DebugFilesRepository;
  apps: AppsClient;
  storage: ObjectStorage;
  /** Fetches a stored archive, hashes and parses it (a temporary file, removed after). */
  readArchive: (objectKey: string) => Promise<ReadArchive>;
  /** Called after a write that recorded events, so they go out at once. */
  onEventsRecorded: () => void;
  logger: Logger;
  /** Largest mapping one retrace reads (DEBUG_FILE_RETRACE_MAX_MAPPING_BYTES); larger: 413. */
  retraceMaxMappingBytes?: number;
}

export interface Actor {
  userId: number;
  role: string;
  /** Set when the caller's token is limited to some apps; the apps service enforces it. */
  appLimit?: { appIds: number[] };
}
