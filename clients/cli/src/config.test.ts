import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configPath, readConfig, resolveConnection, writeConfig } from './config';
import { userDirs } from './user-dirs';

describe('config', () => {
  let home: string;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-cli-config-'));
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('when XDG_CONFIG_HOME is set, then the file is hangar/config.json under it; otherwise under ~/.config', () => {
    expect(configPath({ XDG_CONFIG_HOME: '/x/cfg' })).toBe('/x/cfg/hangar/config.json');
    expect(userDirs({}, '/home/me')).toEqual({ config: '/home/me/.config/hangar', cache: '/home/me/.cache/hangar' });
    expect(userDirs({ XDG_CACHE_HOME: '/c' }, '/home/me').cache).toBe('/c/hangar');
  });

  it('when written, then the file is mode 0600 in a 0700 folder and reads back', () => {
    const file = path.join(home, 'cfg', 'hangar', 'config.json');
    writeConfig(file, { url: 'https://h.example.com', token: 'hgr_secret' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readConfig(file)).toEqual({ url: 'https://h.example.com', token: 'hgr_secret' });
  });

  it('when an old file is world-readable, then writing it again leaves it 0600', () => {
    const file = path.join(home, 'config.json');
    fs.writeFileSync(file, '{}', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    writeConfig(file, { url: 'https://h', token: 't' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('when there is no file, then the config is empty', () => {
    expect(readConfig(path.join(home, 'missing.json'))).toEqual({});
  });

  it('when HANGAR_URL and HANGAR_TOKEN are set, then they override the file; a flag overrides both', () => {
    const env = { XDG_CONFIG_HOME: home };
    writeConfig(configPath(env), { url: 'https://file.example.com/', token: 'from-file' });
    expect(resolveConnection({}, env)).toEqual({ url: 'https://file.example.com', token: 'from-file', sources: { url: 'config', token: 'config' } });
    const withEnv = { ...env, HANGAR_URL: 'https://env.example.com', HANGAR_TOKEN: 'from-env' };
    expect(resolveConnection({}, withEnv)).toEqual({ url: 'https://env.example.com', token: 'from-env', sources: { url: 'env', token: 'env' } });
    expect(resolveConnection({ token: 'from-flag' }, withEnv)).toMatchObject({ url: 'https://env.example.com', token: 'from-flag', sources: { url: 'env', token: 'flag' } });
  });

  it('when nothing is configured, then the connection has no URL and no token', () => {
    expect(resolveConnection({}, { XDG_CONFIG_HOME: home })).toEqual({ url: '', token: undefined, sources: { url: 'none', token: 'none' } });
  });
});
