import { isIP } from 'node:net';

/** Whether a URL's host is this machine only (a phone on the network cannot reach it). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return true;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '0.0.0.0' || host === '::') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/**
 * `DOWNLOAD_REDIRECT` under `npm run up`: the gateway's own default (true, where
 * clients reach S3: the image, deploy/k8s) only when the URLs it would redirect to
 * are reachable by others — S3_PUBLIC_ENDPOINT, else S3_ENDPOINT, not on loopback.
 * Otherwise downloads stream through the gateway. Set explicitly, it is kept.
 */
export function downloadRedirectSetting(env: NodeJS.ProcessEnv, s3Endpoint: string): string {
  if (env.DOWNLOAD_REDIRECT !== undefined && env.DOWNLOAD_REDIRECT !== '') return env.DOWNLOAD_REDIRECT;
  return isLoopbackUrl(env.S3_PUBLIC_ENDPOINT || s3Endpoint) ? 'false' : 'true';
}
