import fs from 'node:fs';
import path from 'node:path';
import { RunningHangar, startHangar, uniqueName } from '@hangar/testing';

/**
 * What `npm run up` tells a person about the bootstrap admin: on the start that creates it, the
 * URL, the e-mail and the password to sign in to the console with (and the token); on later
 * starts not the password again; and never a password the operator set in HANGAR_ADMIN_PASSWORD.
 */
describe('the launcher on the first start of an installation', () => {
  let hangar: RunningHangar | undefined;
  let dataDir: string | undefined;

  afterEach(async () => {
    await hangar?.stop();
    hangar = undefined;
  });

  afterAll(() => {
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** One installation across two starts: its databases, subjects and bucket, and a token the launcher makes up and keeps. */
  const prefix = uniqueName('e2e_first').replace(/-/g, '_');
  const installation = {
    HANGAR_DB_PREFIX: prefix,
    NATS_SUBJECT_PREFIX: prefix.replace(/_/g, '-'),
    S3_BUCKET: uniqueName('e2e-first-start'),
    HANGAR_ADMIN_PASSWORD: undefined,
    HANGAR_ADMIN_TOKEN: undefined,
  };
  const kept = () => JSON.parse(fs.readFileSync(path.join(dataDir!, 'admin-credentials.json'), 'utf8')) as { password: string; token: string };

  const signIn = (baseUrl: string, email: string, password: string) =>
    fetch(`${baseUrl}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });

  it('when the password is generated, then the first start prints the URL, e-mail, password and token, and the password signs in', async () => {
    // No HANGAR_ADMIN_PASSWORD: the launcher makes one up, as for anyone trying Hangar.
    hangar = await startHangar(installation, { keepDataDir: true });
    dataDir = hangar.dataDir;
    const { password, token } = kept();
    const output = hangar.output();
    expect(output).toContain(`Hangar is running at ${hangar.baseUrl}`);
    expect(output).toContain('  admin:       admin@e2e.test\n');
    expect(output).toContain(`  password:    ${password}\n               (shown on this first start only)\n`);
    expect(output).toContain(`  admin token: ${token}\n`);
    expect(output).toContain(`(generated values are kept in ${path.join(dataDir, 'admin-credentials.json')}, readable by you only)`);
    const signedIn = await signIn(hangar.baseUrl, 'admin@e2e.test', password);
    expect(signedIn.status).toBe(201);
  });

  it('when the same installation starts again, then the password is not printed again, and the token still is', async () => {
    expect(dataDir).toBeDefined();
    hangar = await startHangar(installation, { dataDir: dataDir!, keepDataDir: true });
    const { password, token } = kept();
    const output = hangar.output();
    expect(output).not.toContain(password);
    expect(output).toContain('  password:    printed by the first start, not again\n');
    expect(output).toContain(`  admin token: ${token}\n`);
  });

  it('when the operator set HANGAR_ADMIN_PASSWORD, then the start says the password is that one, without echoing it', async () => {
    hangar = await startHangar();
    const output = hangar.output();
    expect(output).toContain('  password:    the one in HANGAR_ADMIN_PASSWORD\n');
    expect(output).not.toContain(hangar.adminPassword);
    expect((await signIn(hangar.baseUrl, 'admin@e2e.test', hangar.adminPassword)).status).toBe(201);
  });
});
