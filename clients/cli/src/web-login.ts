import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from './api-client';
import { CliError } from './command-context';

/** Long enough to sign in at the provider; the server's own state expires sooner by default (10 min). */
const WAIT_MS = 15 * 60 * 1000;

interface CreatedToken {
  token: string;
}

/**
 * `hangar login --web`: single sign-on through the browser, for a
 * Hangar with an identity provider. A server on a loopback port waits for the
 * browser; Hangar's sign-in is started with that port and the SHA-256 of a
 * verifier that never leaves this process. After the provider, Hangar sends
 * the browser to the port with a one-time code, which only this verifier
 * turns into a personal access token (PKCE between Hangar and its CLI).
 * `say` tells the person which URL to open; `openBrowser` may open it.
 */
export async function tokenThroughBrowser(baseUrl: string, userAgent: string, say: (line: string) => void, openBrowser: boolean): Promise<string> {
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  let received: (code: string) => void = () => undefined;
  const code = new Promise<string>((resolve) => (received = resolve));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const given = url.searchParams.get('code');
    if (req.method !== 'GET' || url.pathname !== '/callback' || !given) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end('<!doctype html><html lang="en"><title>Hangar CLI</title><main><h1>Signed in</h1><p>You can close this tab and go back to the terminal.</p></main></html>');
    received(given);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    const start = `${baseUrl}/api/sessions/oidc/start?cli_port=${port}&cli_challenge=${challenge}`;
    say(`Open this address in your browser to sign in:\n  ${start}`);
    if (openBrowser) openInBrowser(start);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new CliError('no sign-in arrived from the browser in 15 minutes: run `hangar login --web` again')), WAIT_MS)));
    const given = await Promise.race([code, timedOut]).finally(() => clearTimeout(timer));
    // Not retried: the code is single use, a second try would only be refused.
    const api = new ApiClient({ baseUrl, token: undefined, userAgent, retryDelaysMs: [] });
    const created = await api.postJson<CreatedToken>('/api/sessions/oidc/cli-token', { code: given, verifier, name: `hangar CLI (${new Date().toISOString().slice(0, 10)})` });
    return created.token;
  } finally {
    server.close();
    server.closeAllConnections();
  }
}

/** The desktop's way to open a URL; nothing happens where there is none (the URL was printed anyway). */
function openInBrowser(url: string): void {
  const [command, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}
