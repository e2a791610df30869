import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/** How the next token answers' ID tokens are altered (identity-provider.mjs says how). */
export type IdTokenMode = 'normal' | 'forged' | 'expired' | 'wrong-audience' | 'replayed-nonce';

export interface RunningIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  setMode(mode: IdTokenMode): Promise<void>;
  /** The account (its login) has this email from now on: a person renamed at the provider, same subject. */
  setEmail(account: string, email: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the real OpenID Provider (oidc-provider) of identity-provider.mjs in a child process. */
export async function startIdentityProvider(): Promise<RunningIdentityProvider> {
  const clientSecret = `client-secret-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, 'identity-provider.mjs')], {
    env: { ...process.env, HANGAR_TEST_CLIENT_SECRET: clientSecret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const issuer = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`the identity provider did not start:\n${stdout}${output}`)), 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      const line = stdout.split('\n').find((l) => l.startsWith('{"issuer"'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { issuer: string }).issuer);
      }
    });
    child.once('exit', (code) => reject(new Error(`the identity provider exited (${code}):\n${stdout}${output}`)));
  });
  return {
    issuer,
    clientId: 'hangar',
    clientSecret,
    async setMode(mode) {
      const res = await fetch(`${issuer}/__test/mode`, { method: 'POST', body: JSON.stringify({ mode }) });
      if (res.status !== 204) throw new Error(`the identity provider refused mode ${mode}: ${res.status}`);
    },
    async setEmail(account, email) {
      const res = await fetch(`${issuer}/__test/email`, { method: 'POST', body: JSON.stringify({ account, email }) });
      if (res.status !== 204) throw new Error(`the identity provider refused the email of ${account}: ${res.status}`);
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
