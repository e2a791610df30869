import os from 'node:os';
import path from 'node:path';

/** Where the CLI keeps its files, after the XDG base directory spec (as `gh` does). */
export interface UserDirs {
  config: string;
  cache: string;
}

export function userDirs(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): UserDirs {
  const configHome = env.XDG_CONFIG_HOME?.trim() || path.join(home, '.config');
  const cacheHome = env.XDG_CACHE_HOME?.trim() || path.join(home, '.cache');
  return { config: path.join(configHome, 'hangar'), cache: path.join(cacheHome, 'hangar') };
}
