import { downloadRedirectSetting, isLoopbackUrl } from './download-redirect';

describe('DOWNLOAD_REDIRECT under npm run up', () => {
  it('when S3 is on loopback and no public endpoint is set, then downloads stream through the gateway', () => {
    expect(downloadRedirectSetting({}, 'http://127.0.0.1:9000')).toBe('false');
    expect(downloadRedirectSetting({ S3_PUBLIC_ENDPOINT: 'http://localhost:9000' }, 'http://127.0.0.1:9000')).toBe('false');
    expect(downloadRedirectSetting({ S3_PUBLIC_ENDPOINT: '' }, 'http://[::1]:9000')).toBe('false');
  });

  it('when clients can reach the URL redirected to, then downloads redirect; an explicit value is kept', () => {
    expect(downloadRedirectSetting({ S3_PUBLIC_ENDPOINT: 'https://s3.example.com' }, 'http://127.0.0.1:9000')).toBe('true');
    expect(downloadRedirectSetting({}, 'http://192.168.1.20:9000')).toBe('true');
    expect(downloadRedirectSetting({ DOWNLOAD_REDIRECT: 'true' }, 'http://127.0.0.1:9000')).toBe('true');
    expect(downloadRedirectSetting({ DOWNLOAD_REDIRECT: 'false' }, 'https://s3.example.com')).toBe('false');
  });

  it('when a host is this machine only, then it is loopback', () => {
    for (const url of ['http://127.0.0.2:1', 'http://LOCALHOST:1', 'http://a.localhost', 'http://[::1]:9', 'http://0.0.0.0:9', 'not a url']) expect(isLoopbackUrl(url)).toBe(true);
    for (const url of ['http://10.0.0.1', 'http://s3.example.com', 'http://[2001:db8::1]:9']) expect(isLoopbackUrl(url)).toBe(false);
  });
});
