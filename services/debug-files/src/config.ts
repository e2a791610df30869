import { bytes, grpcTarget, loadConfig, milliseconds, mongoDatabase, mongoUrl, natsReplicas, natsUrl, serviceBase, serviceDatabaseName, storageFields, storageJanitorFields, z } from '@hangar/config';

const schema = z.object({
  ...serviceBase,
  ...storageFields,
  ...storageJanitorFields,
  GRPC_LISTEN: z.string().regex(/^[^\s]*:\d+$/, 'expected host:port').default('0.0.0.0:50051'),
  MONGO_URL: mongoUrl,
  MONGO_DB: mongoDatabase(serviceDatabaseName('debug-files')),
  NATS_URL: natsUrl,
  /** Copies JetStream keeps of each stream and KV bucket this process creates (libs/config `natsReplicas`). */
  NATS_REPLICAS: natsReplicas,
  NATS_SUBJECT_PREFIX: z.string().regex(/^[a-z][a-z0-9_-]*$/).default('hangar'),
  APPS_GRPC_TARGET: grpcTarget.default('apps:50051'),
  GRPC_DEADLINE_MS: milliseconds(10_000),
  /** How long an upload waits for the parsing pool to read its archive (asked again meanwhile if no worker confirms it). */
  DEBUG_FILE_PARSE_TIMEOUT_MS: milliseconds(170_000),
  /** Most bytes one uploaded archive may inflate to (a zip: as its directory declares; a tar.gz: as it streams). */
  DEBUG_FILE_MAX_INFLATED_BYTES: bytes(1024 ** 3),
  /** Most inflated bytes per compressed byte once over 16 MiB inflate: decompression bombs are refused at once. */
  DEBUG_FILE_MAX_COMPRESSION_RATIO: z.coerce.number().min(1).default(200),
  /** Largest mapping.txt one retrace call reads (it streams the mapping twice); larger: 413. */
  DEBUG_FILE_RETRACE_MAX_MAPPING_BYTES: bytes(512 * 1024 ** 2),
});

export type DebugFilesConfig = z.infer<typeof schema>;

export const loadDebugFilesConfig = (env?: Record<string, string | undefined>): DebugFilesConfig => loadConfig(schema, env);
