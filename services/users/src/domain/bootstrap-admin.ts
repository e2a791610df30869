import { AlreadyExists } from '@hangar/errors';
import type { Logger } from '@hangar/logger';
import { registerToken } from './access-tokens';
import type { UsersDeps } from './deps';
import { generateToken, hashPassword, randomBase62 } from './secrets';
import { DEFAULTS } from './user-fields';

export interface BootstrapSettings {
  email: string;
  password?: string;
  token?: string;
}

export type BootstrapResult = { created: false } | { created: true; userId: number; generatedToken?: string; generatedPassword?: string };

/**
 * Creates the first admin when none exists, so a fresh install can be used at
 * once. Values not given are random; the caller prints generated ones once
 * (never through the logger). Replicas racing here collide on the unique
 * email and only one admin is made.
 */
export async function bootstrapAdmin(deps: UsersDeps, settings: BootstrapSettings, logger: Logger): Promise<BootstrapResult> {
  if ((await deps.users.countAdmins()) > 0) return { created: false };
  const password = settings.password ?? randomBase62(24);
  const token = settings.token ?? generateToken();
  try {
    const admin = await deps.users.create({
      username: 'admin',
      email: settings.email.toLowerCase(),
      passwordHash: await hashPassword(password),
      locale: DEFAULTS.locale,
      appearance: DEFAULTS.appearance,
      timezone: DEFAULTS.timezone,
      role: 'admin',
      // A generated password went through a terminal: ask for a new one.
      mustChangePassword: settings.password === undefined,
    });
    await registerToken(deps, admin._id, 'bootstrap', token);
    logger.info({ userId: admin._id, email: admin.email }, 'bootstrap admin created');
    return {
      created: true,
      userId: admin._id,
      ...(settings.token ? {} : { generatedToken: token }),
      ...(settings.password ? {} : { generatedPassword: password }),
    };
  } catch (err) {
    if (err instanceof AlreadyExists) return { created: false };
    throw err;
  }
}
