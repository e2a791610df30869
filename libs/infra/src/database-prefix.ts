import { FERRETDB_HIDDEN_NAME } from '@hangar/config';
import { SetupError } from './setup-error';

/**
 * `HANGAR_DB_PREFIX` (`hangar` when unset): the services' databases are
 * `<prefix>_users`, `<prefix>_apps`, … Checked before anything starts, with the
 * rule each service applies to its own MONGO_DB (libs/config `mongoDatabase`):
 * a name beginning with `pg` is one FerretDB on PostgreSQL loses on restart.
 */
export function databasePrefixSetting(env: NodeJS.ProcessEnv): string {
  const prefix = env.HANGAR_DB_PREFIX || 'hangar';
  if (FERRETDB_HIDDEN_NAME.test(`${prefix}_`)) {
    throw new SetupError(
      `HANGAR_DB_PREFIX must not begin with "pg" (got "${prefix}"): FerretDB on PostgreSQL does not find a database named so again after it restarts.`,
    );
  }
  return prefix;
}
