import { databasePrefixSetting } from './database-prefix';

describe('HANGAR_DB_PREFIX', () => {
  it('when unset or a usual name, then the services get it', () => {
    expect(databasePrefixSetting({})).toBe('hangar');
    expect(databasePrefixSetting({ HANGAR_DB_PREFIX: 'staging' })).toBe('staging');
    expect(databasePrefixSetting({ HANGAR_DB_PREFIX: 'PGx' })).toBe('PGx');
  });

  it("when it begins with 'pg', then the launcher stops before starting anything, saying why", () => {
    for (const prefix of ['pg', 'pgurl', 'pg_x', 'pgx'])
      expect(() => databasePrefixSetting({ HANGAR_DB_PREFIX: prefix })).toThrow(/HANGAR_DB_PREFIX must not begin with "pg".*FerretDB on PostgreSQL/);
  });
});
