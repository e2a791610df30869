import { ConfigError, loadConfig, mongoDatabase, mongoUrl, port, z } from './index';

const schema = z.object({ PORT: port(8080), MONGO_URL: mongoUrl, NAME: z.string().min(3) });

describe('loadConfig', () => {
  it('when values are valid or defaulted, then they are parsed and coerced', () => {
    const config = loadConfig(schema, { MONGO_URL: 'mongodb://db:27017', NAME: 'hangar', UNRELATED: 'x' });
    expect(config).toEqual({ PORT: 8080, MONGO_URL: 'mongodb://db:27017', NAME: 'hangar' });
  });

  it('when several values are wrong, then every problem is reported at once', () => {
    let error: unknown;
    try {
      loadConfig(schema, { PORT: '99999', MONGO_URL: 'postgres://x', NAME: 'ab' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['MONGO_URL', 'NAME', 'PORT']);
  });

  it('when a variable is set but empty, then it counts as unset', () => {
    expect(() => loadConfig(schema, { MONGO_URL: '', NAME: 'hangar' })).toThrow(/MONGO_URL/);
    expect(loadConfig(schema, { PORT: '', MONGO_URL: 'mongodb://x', NAME: 'abc' }).PORT).toBe(8080);
  });

  it("when a service's database name begins with 'pg', then the service refuses to start, saying why", () => {
    const databases = z.object({ MONGO_DB: mongoDatabase('hangar_apps') });
    expect(loadConfig(databases, {}).MONGO_DB).toBe('hangar_apps');
    expect(loadConfig(databases, { MONGO_DB: 'PGx_apps' }).MONGO_DB).toBe('PGx_apps');
    expect(() => loadConfig(databases, { MONGO_DB: 'pgurl_apps' })).toThrow(/MONGO_DB: must not begin with 'pg'/);
  });
});
