/**
 * The services that own a MongoDB database, and the database each one uses unless told
 * otherwise (`MONGO_DB`): `<prefix>_<service>`, the prefix `hangar` — or `HANGAR_DB_PREFIX`
 * under `npm run up`. The services' config defaults, the launcher and the MongoDB user that
 * docs/operations.md creates all come from this one list (tests/deploy/mongo-user.test.ts
 * holds the docs and every service's config to it).
 */
export const DATABASE_SERVICES = ['users', 'apps', 'releases', 'debug-files', 'webhooks'] as const;

export type DatabaseService = (typeof DATABASE_SERVICES)[number];

export const DEFAULT_DATABASE_PREFIX = 'hangar';

/** `debug-files` → `hangar_debug_files`: database names keep to letters, digits and `_`. */
export function serviceDatabaseName(service: DatabaseService, prefix = DEFAULT_DATABASE_PREFIX): string {
  return `${prefix}_${service.replace(/-/g, '_')}`;
}

/** Every service's database: what the one MongoDB user of an installation needs readWrite on. */
export function serviceDatabaseNames(prefix = DEFAULT_DATABASE_PREFIX): string[] {
  return DATABASE_SERVICES.map((service) => serviceDatabaseName(service, prefix));
}
