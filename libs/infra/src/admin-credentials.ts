import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface AdminCredentials {
  email: string;
  password: string;
  token: string;
  /** Values the launcher made up (and stored), as opposed to ones from the environment. */
  generated: ('password' | 'token')[];
  /** Where the password came from: the operator's HANGAR_ADMIN_PASSWORD, the data dir's file, or made up now. */
  passwordFrom: 'environment' | 'stored' | 'generated';
  /** The file generated values are kept in. */
  file: string;
}

const randomSecret = (prefix = '') => prefix + randomBytes(30).toString('base64url');

/**
 * The bootstrap admin for a local run: HANGAR_ADMIN_* when set; otherwise
 * values generated once and kept (mode 0600) in the data dir beside the
 * database they were created in, so every later `npm run up` prints the same
 * working token.
 */
export function localAdminCredentials(dataDir: string, env: NodeJS.ProcessEnv): AdminCredentials {
  const file = path.join(dataDir, 'admin-credentials.json');
  let stored: Partial<AdminCredentials> = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<AdminCredentials>;
  const generated: AdminCredentials['generated'] = [];
  const password = env.HANGAR_ADMIN_PASSWORD || stored.password || (generated.push('password'), randomSecret());
  const token = env.HANGAR_ADMIN_TOKEN || stored.token || (generated.push('token'), randomSecret('hgr_'));
  const email = env.HANGAR_ADMIN_EMAIL || 'admin@hangar.local';
  if (generated.length > 0) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ password, token }, null, 2), { mode: 0o600 });
  }
  const passwordFrom = env.HANGAR_ADMIN_PASSWORD ? 'environment' : generated.includes('password') ? 'generated' : 'stored';
  return { email, password, token, generated, passwordFrom, file };
}

/**
 * Keys that must stay the same across restarts of a local run: the install
 * pages' signing secret and the key webhook secrets are encrypted with. Taken
 * from the environment when set, else generated once and kept (mode 0600) in
 * the data dir, like the admin credentials.
 */
export function localServiceSecrets(dataDir: string, env: NodeJS.ProcessEnv): { INSTALL_SECRET: string; WEBHOOK_SECRET_KEY: string } {
  const file = path.join(dataDir, 'service-secrets.json');
  const stored = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const secrets = {
    INSTALL_SECRET: env.INSTALL_SECRET || stored.INSTALL_SECRET || randomSecret(),
    WEBHOOK_SECRET_KEY: env.WEBHOOK_SECRET_KEY || stored.WEBHOOK_SECRET_KEY || randomSecret(),
  };
  if (secrets.INSTALL_SECRET !== stored.INSTALL_SECRET || secrets.WEBHOOK_SECRET_KEY !== stored.WEBHOOK_SECRET_KEY) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ INSTALL_SECRET: secrets.INSTALL_SECRET, WEBHOOK_SECRET_KEY: secrets.WEBHOOK_SECRET_KEY }, null, 2), { mode: 0o600 });
  }
  return secrets;
}
