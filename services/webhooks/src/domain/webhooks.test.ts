import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidArgument } from '@hangar/errors';
import { retryDelayMs } from './dispatcher';
import { sendWebhook, signBody } from './http-sender';
import { SecretBox, generateWebhookSecret } from './secret-box';
import { TargetRefused, WebhookTargetPolicy } from './target-policy';

const fixedDns = (answers: Record<string, string[]>) => async (host: string) => {
  const list = answers[host];
  if (!list) throw new Error('ENOTFOUND');
  return list.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));
};

describe('webhook target policy', () => {
  const policy = new WebhookTargetPolicy('', fixedDns({ 'hooks.example.com': ['93.184.216.34'], 'rebind.example.com': ['93.184.216.34', '10.0.0.5'], 'v6.example.com': ['2606:4700::1111'] }));

  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.10', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', '224.0.0.1'])(
    'when the address is %s, then it is refused without an allow-list',
    (address) => {
      expect(policy.addressAllowed(address)).toBe(false);
    },
  );

  it('when the address is public, then it is allowed', () => {
    expect(policy.addressAllowed('93.184.216.34')).toBe(true);
    expect(policy.addressAllowed('2606:4700::1111')).toBe(true);
  });

  it('when a host resolves to one private address among public ones (DNS rebinding), then it is refused', async () => {
    await expect(policy.addressesFor('rebind.example.com')).rejects.toBeInstanceOf(TargetRefused);
    await expect(policy.addressesFor('hooks.example.com')).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('when a URL is not http(s), carries credentials, or targets loopback, then saving it is 422 naming url', async () => {
    for (const url of ['ftp://hooks.example.com/x', 'http://user:pw@hooks.example.com/', 'not a url', 'http://localhost:8080/', 'http://[::1]/', 'http://127.0.0.1/']) {
      const err = await policy.checkUrl(url).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidArgument);
      expect(Object.keys((err as InvalidArgument).entry ?? {})).toEqual(['url']);
    }
    await expect(policy.checkUrl('https://hooks.example.com/hangar')).resolves.toBeInstanceOf(URL);
  });

  it('when HANGAR_WEBHOOK_ALLOWED_HOSTS lists an address, a CIDR range or a host name, then exactly those private targets pass', async () => {
    const listed = new WebhookTargetPolicy('127.0.0.1, 10.20.0.0/16, hooks.internal, *.corp.example', fixedDns({ 'hooks.internal': ['10.99.0.1'], 'ci.corp.example': ['192.168.7.7'], 'other.internal': ['10.99.0.1'] }));
    expect(listed.addressAllowed('127.0.0.1')).toBe(true);
    expect(listed.addressAllowed('127.0.0.2')).toBe(false);
    expect(listed.addressAllowed('10.20.5.5')).toBe(true);
    expect(listed.addressAllowed('10.21.0.1')).toBe(false);
    await expect(listed.addressesFor('hooks.internal')).resolves.toHaveLength(1);
    await expect(listed.addressesFor('ci.corp.example')).resolves.toHaveLength(1);
    await expect(listed.addressesFor('other.internal')).rejects.toBeInstanceOf(TargetRefused);
  });

  it('when an allow-list entry cannot be read, then the policy refuses to start', () => {
    expect(() => new WebhookTargetPolicy('10.0.0.0/99')).toThrow(/CIDR/);
    expect(() => new WebhookTargetPolicy('http://x')).toThrow(/HANGAR_WEBHOOK_ALLOWED_HOSTS/);
  });
});

describe('webhook secrets at rest', () => {
  const box = new SecretBox('a-key-of-at-least-thirty-two-characters!');

  it('when sealed, then the text holds no trace of the secret and opens again only for the same webhook and key', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    const sealed = box.seal(secret, 7);
    expect(sealed).not.toContain(secret);
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(box.open(sealed, 7)).toBe(secret);
    expect(box.seal(secret, 7)).not.toBe(sealed); // fresh IV each time
    expect(() => box.open(sealed, 8)).toThrow();
    expect(() => new SecretBox('another-key-of-at-least-thirty-two-chars').open(sealed, 7)).toThrow();
  });
});

describe('webhook calls', () => {
  it('when signed, then the header is sha256= the hex HMAC-SHA256 of the exact body', () => {
    const body = '{"event":"release.created"}';
    expect(signBody(body, 's3cret-value')).toBe(`sha256=${createHmac('sha256', 's3cret-value').update(body).digest('hex')}`);
  });

  it('when retries back off, then each delay doubles from the base', () => {
    expect([1, 2, 3, 7].map((n) => retryDelayMs(n, 30_000))).toEqual([30_000, 60_000, 120_000, 1_920_000]);
    // 8 attempts: 7 waits, 30 s … 32 min, about an hour in all.
    expect(Array.from({ length: 7 }, (_, i) => retryDelayMs(i + 1, 30_000)).reduce((a, b) => a + b) / 60_000).toBeCloseTo(63.5, 1);
  });

  describe('against a local receiver', () => {
    let server: http.Server;
    let port = 0;
    let answer: (res: http.ServerResponse) => void = (res) => res.end('ok');
    const seen: { headers: http.IncomingHttpHeaders; body: string }[] = [];

    beforeAll(async () => {
      server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          seen.push({ headers: req.headers, body });
          answer(res);
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    const allowed = new WebhookTargetPolicy('127.0.0.1');
    const request = (timeoutMs = 2_000) => ({ url: `http://127.0.0.1:${port}/hook`, body: '{"a":1}', headers: { 'Content-Type': 'application/json', 'X-Test': 'yes' }, timeoutMs });

    it('when the receiver answers 200, then it is a success and the body and headers arrive as sent', async () => {
      answer = (res) => res.end('ok');
      const outcome = await sendWebhook(allowed, request());
      expect(outcome).toMatchObject({ statusCode: 200, success: true, error: '' });
      expect(seen.at(-1)).toMatchObject({ body: '{"a":1}', headers: { 'content-type': 'application/json', 'x-test': 'yes' } });
    });

    it('when the receiver answers 500 or redirects, then it is a failure with the status', async () => {
      answer = (res) => {
        res.statusCode = 500;
        res.end();
      };
      expect(await sendWebhook(allowed, request())).toMatchObject({ statusCode: 500, success: false, error: 'answered HTTP 500' });
      answer = (res) => {
        res.writeHead(302, { Location: 'http://169.254.169.254/' });
        res.end();
      };
      expect(await sendWebhook(allowed, request())).toMatchObject({ statusCode: 302, success: false });
    });

    it('when the receiver does not answer in time, then the call is cut at the time limit', async () => {
      answer = () => undefined; // never answers
      const started = Date.now();
      const outcome = await sendWebhook(allowed, request(300));
      expect(outcome).toMatchObject({ statusCode: 0, success: false });
      expect(outcome.error).toMatch(/300 ms/);
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('when the loopback receiver is not allowed, then no request is made', async () => {
      const before = seen.length;
      const outcome = await sendWebhook(new WebhookTargetPolicy(''), request());
      expect(outcome).toMatchObject({ statusCode: 0, success: false });
      expect(outcome.error).toMatch(/^target refused/);
      expect(seen.length).toBe(before);
    });
  });
});
