import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidArgument } from '@hangar/errors';
import { retryDelayMs } from './dispatcher';
import { PRIVATE_TARGET_FAILURE, sendWebhook, signBody } from './http-sender';
import { SecretBox, generateWebhookSecret } from './secret-box';
import { TargetRefused, WebhookTargetPolicy, embeddedV4 } from './target-policy';

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

  // Every IPv6 spelling that reaches an IPv4 address: compatible, mapped, translated, NAT64, 6to4 (and Teredo, local-use NAT64).
  it.each([
    '::127.0.0.1', '::7f00:1', '0:0:0:0:0:0:7f00:1', '::ffff:127.0.0.1', '::ffff:7f00:1', '[0:0:0:0:0:ffff:7f00:1]', '0000:0000:0000:0000:0000:FFFF:7F00:0001',
    '::ffff:0:127.0.0.1', '::ffff:0:a00:1', '64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::a00:1',
    '2002:7f00:1::', '2002:a00:1::1', '2002:c0a8:101:1::5', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '::a9fe:a9fe', '::10.0.0.1', '::', '::1',
  ])('when the address is the IPv6 form %s of a private IPv4 address, then it is refused', (address) => {
    expect(policy.addressAllowed(address)).toBe(false);
    expect(policy.isPublic(address)).toBe(false);
  });

  it('when an IPv6 address carries an IPv4 one, then the embedded address is read in every spelling', () => {
    expect(['::127.0.0.1', '::7f00:1', '::ffff:7f00:1', '::ffff:0:7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::', '2002:7f00:0001:abcd::9'].map(embeddedV4)).toEqual(Array(7).fill('127.0.0.1'));
    expect(embeddedV4('2606:4700::1111')).toBeUndefined();
  });

  it('when a URL names an IPv6 form of loopback, then saving it is 422 and no delivery connects to it', async () => {
    for (const host of ['[::127.0.0.1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:7f00:1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::]']) {
      await expect(policy.checkUrl(`http://${host}/`)).rejects.toBeInstanceOf(InvalidArgument);
    }
    // At connect time: a name whose DNS answer is such a form.
    const dns = new WebhookTargetPolicy('', fixedDns({ 'mapped.example.com': ['::7f00:1'], 'nat64.example.com': ['64:ff9b::a9fe:a9fe'] }));
    await expect(dns.addressesFor('mapped.example.com', 80)).rejects.toBeInstanceOf(TargetRefused);
    await expect(dns.addressesFor('nat64.example.com', 80)).rejects.toBeInstanceOf(TargetRefused);
  });

  it('when the IPv6 form carries a public IPv4 address, then it is allowed', () => {
    expect(policy.addressAllowed('::ffff:93.184.216.34')).toBe(true);
    expect(policy.addressAllowed('64:ff9b::5db8:d822')).toBe(true);
    expect(policy.addressAllowed('2002:5db8:d822::1')).toBe(true);
  });

  it('when the allow-list names host:port, then only that port passes; a bare entry allows every port', async () => {
    const listed = new WebhookTargetPolicy('127.0.0.1:8080, [::1]:9090, hooks.internal:8443, 10.20.0.0/16:80, 192.168.1.1', fixedDns({ 'hooks.internal': ['10.99.0.1'] }));
    expect(listed.addressAllowed('127.0.0.1', 8080)).toBe(true);
    expect(listed.addressAllowed('127.0.0.1', 8081)).toBe(false);
    expect(listed.addressAllowed('127.0.0.1')).toBe(false);
    expect(listed.addressAllowed('::ffff:127.0.0.1', 8080)).toBe(true);
    expect(listed.addressAllowed('::1', 9090)).toBe(true);
    expect(listed.addressAllowed('::1', 80)).toBe(false);
    expect(listed.addressAllowed('10.20.1.1', 80)).toBe(true);
    expect(listed.addressAllowed('10.20.1.1', 81)).toBe(false);
    expect(listed.addressAllowed('192.168.1.1', 22)).toBe(true);
    await expect(listed.checkUrl('https://hooks.internal:8443/x')).resolves.toBeInstanceOf(URL);
    await expect(listed.checkUrl('https://hooks.internal/x')).rejects.toBeInstanceOf(InvalidArgument);
    await expect(listed.checkUrl('http://127.0.0.1:8080/x')).resolves.toBeInstanceOf(URL);
    await expect(listed.checkUrl('http://127.0.0.1:22/x')).rejects.toBeInstanceOf(InvalidArgument);
    expect(() => new WebhookTargetPolicy('127.0.0.1:70000')).toThrow(/port/);
  });

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

    it('when the receiver answers 500 or redirects, then it is a failure (the status kept for the log alone: the target is private)', async () => {
      answer = (res) => {
        res.statusCode = 500;
        res.end();
      };
      expect(await sendWebhook(allowed, request())).toMatchObject({ statusCode: 0, success: false, error: PRIVATE_TARGET_FAILURE, detail: 'answered HTTP 500' });
      answer = (res) => {
        res.writeHead(302, { Location: 'http://169.254.169.254/' });
        res.end();
      };
      expect(await sendWebhook(allowed, request())).toMatchObject({ statusCode: 0, success: false, detail: 'answered HTTP 302' });
    });

    it('when an allowed private target fails, then a closed port, a reset, a hang-up and a 404 answer look the same', async () => {
      const closed = http.createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise<void>((r) => closed.close(() => r()));
      const hangUp = http.createServer((req) => req.socket.destroy());
      await new Promise<void>((r) => hangUp.listen(0, '127.0.0.1', r));
      const hangUpPort = (hangUp.address() as AddressInfo).port;
      answer = (res) => {
        res.statusCode = 404;
        res.end('not here');
      };
      try {
        const outcomes = await Promise.all([closedPort, hangUpPort, port].map((p) => sendWebhook(allowed, { ...request(), url: `http://127.0.0.1:${p}/hook` })));
        const answered = outcomes.map(({ statusCode, success, error }) => ({ statusCode, success, error }));
        expect(answered).toEqual(Array(3).fill({ statusCode: 0, success: false, error: PRIVATE_TARGET_FAILURE }));
        // The operator's log still tells them apart.
        expect(outcomes[0]!.detail).toMatch(/ECONNREFUSED/);
        expect(outcomes[1]!.detail).toMatch(/socket hang up|ECONNRESET/);
        expect(outcomes[2]!.detail).toBe('answered HTTP 404');
      } finally {
        await new Promise<void>((r) => hangUp.close(() => r()));
      }
    });

    it('when the receiver does not answer in time, then the call is cut at the time limit', async () => {
      answer = () => undefined; // never answers
      const started = Date.now();
      const outcome = await sendWebhook(allowed, request(300));
      expect(outcome).toMatchObject({ statusCode: 0, success: false });
      expect(outcome.detail).toMatch(/300 ms/);
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
