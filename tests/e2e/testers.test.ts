import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { cliHome, runCli } from './cli-runner';
import { DESKTOP, PHONE, launchChromium, lookAt, signIn } from './console/console-browser';
import {
  ApiClient,
  ApiResponse,
  RunningHangar,
  TestDevice,
  apiClient,
  startGatewayReplica,
  createUserWithToken,
  eventuallyValue,
  fixturesDir,
  makeTestDevice,
  signedDeviceAnswer,
  startHangar,
  uniqueName,
  verifiedCmsContent,
} from '@hangar/testing';

/**
 * Testers without accounts, end to end: an app admin makes a group that opens a
 * password-protected channel, invites testers by e-mail; a real SMTP server (smtp-server)
 * receives the invitations; the single-use link signs the tester in; the build installs without
 * the channel's password; removal ends the session and the install links at once. A join link
 * with one seat lets one address in.
 */
describe('tester groups, invitations by e-mail and sign-in links', () => {
  let hangar: RunningHangar;
  let api: ApiClient;
  let smtp: SMTPServer;
  let profileSigning: TestDevice;
  const inbox: ParsedMail[] = [];
  const refuseOnce = new Set<string>();

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      // An address named in `refuseOnce` is refused once (452, as a full mailbox or a greylist says).
      onRcptTo(address, _session, callback) {
        if (!refuseOnce.delete(address.address)) return callback();
        callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 452 }));
      },
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => inbox.push(mail))
          .then(() => callback(), callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    // The /udid profile is signed with a certificate of a test CA, the device's answers with another's.
    profileSigning = makeTestDevice('Hangar Test Profiles');
    fs.writeFileSync(path.join(profileSigning.dir, 'chain.pem'), fs.readFileSync(profileSigning.certificate, 'utf8') + fs.readFileSync(profileSigning.caCertificate, 'utf8'));
    hangar = await startHangar({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Hangar <builds@example.com>',
      UDID_PROFILE_CERT: path.join(profileSigning.dir, 'chain.pem'),
      UDID_PROFILE_KEY: profileSigning.key,
      UDID_PROFILE_ORGANISATION: 'Acme QA',
    });
    api = apiClient(hangar.baseUrl);
  }, 240_000);

  afterAll(async () => {
    await hangar?.stop();
    await new Promise<void>((resolve) => (smtp ? smtp.close(resolve) : resolve()));
  });

  /** The e-mail to `to` once it arrived (the mailer sends from an outbox consumer, not from the request). */
  const mailTo = async (to: string, after = 0): Promise<ParsedMail> =>
    (await eventuallyValue(() => inbox.filter((m) => JSON.stringify(m.to ?? '').includes(to)).slice(after)[0], (mail) => mail !== undefined, { timeoutMs: 20_000 }))!;
  const signInLinkIn = (mail: ParsedMail): string => /https?:\/\/\S+\/tester\/sign-in\?token=[A-Za-z0-9]+/.exec(mail.text ?? '')![0];
  /** A JSON POST naming another Host (fetch sends its own whatever it is told): as anyone may send. */
  const postJsonWithHost = (path: string, json: unknown, host: string): Promise<{ status: number; body: unknown }> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(json);
      const req = http.request(`${hangar.baseUrl}${path}`, { method: 'POST', headers: { host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      });
      req.on('error', reject);
      req.end(body);
    });
  const cookieOf = (res: Response | ApiResponse): string => (res.headers.get('set-cookie') ?? '').split(';')[0]!;

  let appId: number;
  let channelId: number;
  let releaseId: number;
  let groupId: number;
  let channelKey: string;
  let appName: string;

  beforeAll(async () => {
    const file = 'android.apk';
    const uploaded = await api('POST', '/api/apps/upload', {
      token: hangar.adminToken,
      form: { name: uniqueName('Tested App'), password: 'open-sesame', changelog: 'Fixes the login crash' },
      files: { file: { data: fs.readFileSync(path.join(fixturesDir(), 'apps', file)), fileName: file } },
    });
    expect(uploaded.status).toBe(201);
    releaseId = uploaded.body.id;
    appId = uploaded.body.app.id;
    channelKey = uploaded.body.channel.slug;
    appName = uploaded.body.app.name;
    const app = await api('GET', `/api/apps/${appId}`, { token: hangar.adminToken });
    channelId = app.body.schemes[0].channels[0].id;
    const group = await api('POST', `/api/apps/${appId}/tester_groups`, { token: hangar.adminToken, json: { name: 'QA', channel_ids: [channelId] } });
    expect(group.status).toBe(201);
    groupId = group.body.id;
  }, 60_000);

  it('when testers are added, then each gets an e-mail whose single-use link signs them in to their builds, which install without the channel password', async () => {
    const added = await api('POST', `/api/apps/${appId}/tester_groups/${groupId}/testers`, { token: hangar.adminToken, form: { emails: 'Jane@Example.com\nbob@example.com' } });
    expect(added.status).toBe(201);
    expect(added.body.added.map((t: { email: string; state: string }) => [t.email, t.state])).toEqual([
      ['jane@example.com', 'invited'],
      ['bob@example.com', 'invited'],
    ]);

    const mail = await mailTo('jane@example.com');
    expect(mail.subject).toBe(`You are invited to test ${appName}`);
    expect(mail.from?.value).toEqual([{ name: 'Hangar', address: 'builds@example.com' }]);
    // A plain-text part beside the HTML one, both with the link.
    expect(mail.text).toContain('no password needed');
    const link = signInLinkIn(mail);
    expect(link.startsWith(`${hangar.baseUrl}/tester/sign-in?token=`)).toBe(true);
    expect(mail.html).toContain(link.replace(/&/g, '&amp;'));

    // Without a session the protected build's page asks for the password.
    expect((await fetch(`${hangar.baseUrl}/releases/${releaseId}`)).status).toBe(401);

    const signedIn = await fetch(link, { redirect: 'manual' });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/tester');
    expect(signedIn.headers.get('set-cookie')).toMatch(/^hangar_tester=[A-Za-z0-9]+;.*HttpOnly/);
    const cookie = cookieOf(signedIn);
    // Once only.
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(401);

    const view = await api('GET', '/api/tester', { headers: { cookie } });
    expect(view.status).toBe(200);
    expect(view.body.email).toBe('jane@example.com');
    expect(view.body.channels).toEqual([expect.objectContaining({ app_id: appId, channel_id: channelId, builds: [expect.objectContaining({ id: releaseId, install_page: `/releases/${releaseId}` })] })]);
    // The channel key is the credential of the channel's API: never shown to a tester.
    expect(view.text).not.toContain(channelKey);
    const home = await fetch(`${hangar.baseUrl}/tester`, { headers: { cookie } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain(`href="/releases/${releaseId}"`);

    const page = await fetch(`${hangar.baseUrl}/releases/${releaseId}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const download = /href="([^"]+\/download\?t=[^"]+)"/.exec(await page.text())![1]!.replace(/&amp;/g, '&');
    // The install link works without the cookie (phones open it elsewhere) and counts as Jane's.
    expect((await fetch(download, { redirect: 'manual' })).status).toBeLessThan(400);
    const group = await eventuallyValue(
      async () => (await api('GET', `/api/apps/${appId}/tester_groups/${groupId}`, { token: hangar.adminToken })).body,
      (g) => g.testers.find((t: { email: string }) => t.email === 'jane@example.com')?.last_download !== null,
    );
    expect(group.testers.find((t: { email: string }) => t.email === 'jane@example.com')).toMatchObject({ state: 'joined', last_download: { release_id: releaseId } });
    expect(group.testers.find((t: { email: string }) => t.email === 'bob@example.com')).toMatchObject({ state: 'invited', joined_at: null });

    // Removed: the session, the tester view and the install link end at once, on every gateway replica.
    const replica = await startGatewayReplica(hangar);
    try {
      const onReplica = apiClient(replica.baseUrl);
      expect((await onReplica('GET', '/api/tester', { headers: { cookie } })).status).toBe(200);
      const jane = group.testers.find((t: { email: string }) => t.email === 'jane@example.com');
      expect((await api('DELETE', `/api/apps/${appId}/tester_groups/${groupId}/testers/${jane.id}`, { token: hangar.adminToken })).status).toBe(200);
      expect((await onReplica('GET', '/api/tester', { headers: { cookie } })).status).toBe(401);
    } finally {
      await replica.stop();
    }
    expect((await api('GET', '/api/tester', { headers: { cookie } })).status).toBe(401);
    expect((await fetch(download, { redirect: 'manual' })).status).toBe(401);
    expect((await fetch(`${hangar.baseUrl}/releases/${releaseId}`, { headers: { cookie } })).status).toBe(401);

    // Nothing of the secrets reached a log.
    const token = new URL(link).searchParams.get('token')!;
    for (const name of ['gateway', 'apps', 'webhooks']) expect(hangar.logOf(name)).not.toContain(token);
  });

  it('when a join link with one seat is shared, then the first address joins and gets its link, and the next is refused', async () => {
    const created = await api('POST', `/api/apps/${appId}/tester_groups/${groupId}/join_links`, { token: hangar.adminToken, json: { seats: 1 } });
    expect(created.status).toBe(201);
    const url = new URL(created.body.url);
    expect(url.pathname).toBe('/tester/join');
    const token = url.searchParams.get('token')!;
    const listed = await api('GET', `/api/apps/${appId}/tester_groups/${groupId}/join_links`, { token: hangar.adminToken });
    expect(listed.body).toEqual([expect.not.objectContaining({ url: expect.anything() })]);

    const joinPage = await fetch(created.body.url);
    expect(joinPage.status).toBe(200);
    const form = await joinPage.text();
    expect(form).toContain('name="email"');
    // The page's form posts to the link itself (no action): the secret is never copied into the page.
    expect(form).toMatch(/<form method="post" class="password-form">/);
    expect(form).not.toContain(token);
    expect((await postJsonWithHost('/api/tester/join', { token, email: 'carol@example.com' }, 'evil.example')).status).toBe(202);
    const mail = await mailTo('carol@example.com');
    // Where the admin made the join link, whatever Host the joiner sent.
    expect(signInLinkIn(mail).startsWith(`${hangar.baseUrl}/tester/sign-in?token=`)).toBe(true);
    const refused = await api('POST', '/api/tester/join', { json: { token, email: 'dave@example.com' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toContain('seat');
    expect((await api('POST', '/api/tester/join', { json: { token: 'not-a-link', email: 'dave@example.com' } })).status).toBe(404);

    // The page's form, as a browser sends it: the e-mail in the body, the token in the link posted to.
    const pageLink = await api('POST', `/api/apps/${appId}/tester_groups/${groupId}/join_links`, { token: hangar.adminToken, json: { seats: 1 } });
    const postForm = (email: string) =>
      fetch(pageLink.body.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email }).toString() });
    const joined = await postForm('erin@example.com');
    expect(joined.status).toBe(202);
    await mailTo('erin@example.com');
    const full = await postForm('frank@example.com');
    expect(full.status).toBe(422);
    const again = await full.text();
    expect(again).toMatch(/<form method="post" class="password-form">/);
    expect(again).not.toContain(new URL(pageLink.body.url).searchParams.get('token')!);

    // The audit log holds who joined, and never the join link's secret.
    const joins = await eventuallyValue(
      async () => (await api('GET', `/api/audit?operation=joinTesterGroup`, { token: hangar.adminToken })).body,
      (entries) => Array.isArray(entries) && entries.length >= 3,
    );
    expect(joins[0].fields).toEqual(expect.objectContaining({ token: '[redacted]' }));
    expect(JSON.stringify(joins)).not.toContain(token);
  });

  it('when an address asks for a new link, then a tester gets one and the answer is the same for a stranger', async () => {
    const before = inbox.filter((m) => JSON.stringify(m.to).includes('bob@example.com')).length;
    // A Host of another site does not decide where the link points (the request is anyone's).
    const asked = await postJsonWithHost('/api/tester/sign_in', { email: 'bob@example.com' }, 'evil.example');
    const stranger = await api('POST', '/api/tester/sign_in', { json: { email: 'nobody@example.com' } });
    expect([asked.status, stranger.status]).toEqual([202, 202]);
    expect(stranger.body).toEqual(asked.body);
    const mail = await mailTo('bob@example.com', before);
    expect(signInLinkIn(mail).startsWith(`${hangar.baseUrl}/tester/sign-in?token=`)).toBe(true);

    // Signed in by it, then out: that session ends.
    const signedIn = await fetch(signInLinkIn(mail), { redirect: 'manual' });
    const cookie = cookieOf(signedIn);
    expect((await api('GET', '/api/tester', { headers: { cookie } })).status).toBe(200);
    const out = await api('DELETE', '/api/tester/session', { headers: { cookie } });
    expect([out.status, out.headers.get('set-cookie')]).toEqual([204, expect.stringMatching(/^hangar_tester=;/)]);
    expect((await api('GET', '/api/tester', { headers: { cookie } })).status).toBe(401);
  });

  it('when testers are added with the CLI from a CSV on standard input, then they are invited, and the list shows their state', async () => {
    const home = cliHome();
    try {
      const env = { ...home.env, HANGAR_URL: hangar.baseUrl, HANGAR_TOKEN: hangar.adminToken };
      const csv = 'Name,Email\nKen,ken@example.com\nBob,bob@example.com\n';
      const added = await runCli(['testers', 'add', '--app', String(appId), '--group', 'qa', '--file', '-'], env, { stdin: csv });
      expect([added.code, added.stderr]).toEqual([0, '']);
      expect(added.stdout).toBe('invited 1 into QA: ken@example.com\nalready in QA: bob@example.com\n');
      await mailTo('ken@example.com');
      const listed = await runCli(['testers', 'list', '--app', String(appId)], env);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(/^QA \(group \d+\): \d+ testers, channels \d+\n/);
      expect(listed.stdout).toMatch(/ken@example\.com\s+invited\s+-/);
      const unknown = await runCli(['testers', 'add', '--app', String(appId), '--group', 'nope', 'x@example.com'], env);
      expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining("no tester group 'nope' (its groups: QA)")]);
    } finally {
      home.remove();
    }
  });

  describe('a new build', () => {
    /** Uploads the fixture again into the tester group's channel. */
    async function uploadBuild(fields: Record<string, string> = {}): Promise<number> {
      const file = 'android.apk';
      const res = await api('POST', '/api/apps/upload', {
        token: hangar.adminToken,
        form: { channel_key: channelKey, ...fields },
        files: { file: { data: fs.readFileSync(path.join(fixturesDir(), 'apps', file)), fileName: file } },
      });
      expect(res.status).toBe(201);
      return res.body.id;
    }
    const buildMails = (to: string, releaseId: number) => inbox.filter((m) => JSON.stringify(m.to ?? '').includes(to) && (m.text ?? '').includes(`/releases/${releaseId}`));
    /** Resolves once `to` got the e-mail of `releaseId` (one consumer takes the builds in order: earlier builds are done by then). */
    const buildMailTo = async (to: string, releaseId: number) => (await eventuallyValue(() => buildMails(to, releaseId)[0], (m) => m !== undefined, { timeoutMs: 20_000 }))!;

    it("when a build lands on the group's channel, then each tester is e-mailed its notes, an install button that signs them in, the QR code and an unsubscribe link", async () => {
      const file = 'android.apk';
      const unclear = await api('POST', '/api/apps/upload', { token: hangar.adminToken, form: { channel_key: channelKey, notify: 'maybe' }, files: { file: { data: fs.readFileSync(path.join(fixturesDir(), 'apps', file)), fileName: file } } });
      expect([unclear.status, unclear.body.entry]).toEqual([422, { notify: ['must be true or false'] }]);
      const quiet = await uploadBuild({ notify: 'false', changelog: 'Not worth a mail' });
      const releaseId = await uploadBuild({ changelog: 'Adds dark mode\nFixes the share sheet' });
      const mail = await buildMailTo('carol@example.com', releaseId);
      await buildMailTo('ken@example.com', releaseId);
      expect(buildMails('carol@example.com', quiet)).toEqual([]);
      expect(buildMails('jane@example.com', releaseId)).toEqual([]);

      expect(mail.subject).toBe(`New build of ${appName}: 1.2.3 (5)`);
      expect(mail.text).toContain("What's new:\n- Adds dark mode\n- Fixes the share sheet");
      const qr = mail.attachments.find((a) => a.cid === 'install-qr@hangar')!;
      expect([qr.contentType, qr.content.subarray(1, 4).toString()]).toEqual(['image/png', 'PNG']);
      // mailparser puts an inline image whose cid the HTML names into the HTML: the reference resolved.
      expect(mail.html).toContain('<img src="data:image/png;base64,');
      const unsubscribe = /https?:\/\/\S+\/tester\/unsubscribe\?tester=\d+&key=[A-Za-z0-9]+/.exec(mail.text!)![0];
      // Unfolded: a long header line is folded onto the next (RFC 5322).
      const header = (key: string) => mail.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n\s+/g, ' ');
      expect([header('list-unsubscribe'), header('list-unsubscribe-post')]).toEqual([`List-Unsubscribe: <${unsubscribe}>`, 'List-Unsubscribe-Post: List-Unsubscribe=One-Click']);

      // The channel is protected: the button is a single-use sign-in link that lands on the build's page.
      const install = /Install it: (\S+)/.exec(mail.text!)![1]!;
      const signedIn = await fetch(install, { redirect: 'manual' });
      expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, `/releases/${releaseId}`]);
      expect((await fetch(`${hangar.baseUrl}/releases/${releaseId}`, { headers: { cookie: cookieOf(signedIn) } })).status).toBe(200);

      // Carol unsubscribes (the page asks first): she hears no more, Ken still does.
      const confirm = await fetch(unsubscribe);
      expect(confirm.status).toBe(200);
      // The form posts to the link itself, as a browser does with a form without an action: the
      // link's key is never copied into the page.
      const page = await confirm.text();
      expect(page).toMatch(/<form method="post" class="password-form">/);
      expect(page).not.toContain(new URL(unsubscribe).searchParams.get('key')!);
      const done = await fetch(unsubscribe, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
      expect(done.status).toBe(200);
      const next = await uploadBuild();
      await buildMailTo('ken@example.com', next);
      expect(buildMails('carol@example.com', next)).toEqual([]);
    });

    it("when the SMTP server refuses one tester's e-mail, then the event comes back and sends that one alone: nobody gets two", async () => {
      refuseOnce.add('ken@example.com');
      const releaseId = await uploadBuild({ changelog: 'Second try' });
      await buildMailTo('ken@example.com', releaseId);
      expect(refuseOnce.size).toBe(0);
      // The next build's e-mail: the redelivered event was handled to its end before it.
      await buildMailTo('ken@example.com', await uploadBuild());
      const recipients = inbox.filter((m) => (m.text ?? '').includes(`/releases/${releaseId}`)).map((m) => JSON.stringify(m.to));
      expect(recipients.length).toBeGreaterThan(1);
      expect(new Set(recipients).size).toBe(recipients.length);
    });

    it("when the scheme's new-build callout is off, then nobody is e-mailed", async () => {
      const app = await api('GET', `/api/apps/${appId}`, { token: hangar.adminToken });
      const schemeId = app.body.schemes[0].id;
      const callout = (on: boolean) => api('PUT', `/api/schemes/${schemeId}`, { token: hangar.adminToken, form: { new_build_callout: String(on) } });
      expect((await callout(false)).status).toBe(200);
      const silent = await uploadBuild();
      expect((await callout(true)).status).toBe(200);
      const heard = await uploadBuild();
      await buildMailTo('ken@example.com', heard);
      expect(buildMails('ken@example.com', silent)).toEqual([]);
    });
  });

  describe('iOS devices', () => {
    let iosRelease: { id: number; profileUdids: string[] };
    let iosChannelId: number;
    let iosAppId: number;
    let cookie: string;
    let phone: TestDevice;

    beforeAll(async () => {
      phone = makeTestDevice('Test iPhone');
      const uploaded = await api('POST', '/api/apps/upload', {
        token: hangar.adminToken,
        form: { name: uniqueName('Ad hoc App'), password: 'open-sesame' },
        files: { file: { data: fs.readFileSync(path.join(fixturesDir(), 'apps', 'iphone.ipa')), fileName: 'iphone.ipa' } },
      });
      expect(uploaded.status).toBe(201);
      iosRelease = { id: uploaded.body.id, profileUdids: uploaded.body.signing.profile.devices };
      expect(uploaded.body.signing.profile).toMatchObject({ type: 'development', devices_count: 100 });
      iosAppId = uploaded.body.app.id;
      iosChannelId = (await api('GET', `/api/apps/${iosAppId}`, { token: hangar.adminToken })).body.schemes[0].channels[0].id;
      const group = await api('POST', `/api/apps/${iosAppId}/tester_groups`, { token: hangar.adminToken, json: { name: 'iOS QA', channel_ids: [iosChannelId] } });
      await api('POST', `/api/apps/${iosAppId}/tester_groups/${group.body.id}/testers`, { token: hangar.adminToken, json: { emails: 'ios@example.com' } });
      cookie = cookieOf(await fetch(signInLinkIn(await mailTo('ios@example.com')), { redirect: 'manual' }));
    }, 60_000);

    /** The signed profile as a tester's Safari downloads it: its register URL and challenge, after openssl checked its signature. */
    async function downloadProfile(): Promise<{ url: string; challenge: string }> {
      const res = await fetch(`${hangar.baseUrl}/udid/profile.mobileconfig`, { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/x-apple-aspen-config');
      const profile = verifiedCmsContent(Buffer.from(await res.arrayBuffer()), profileSigning.dir).toString('utf8');
      expect(profile).toMatch(/<key>PayloadType<\/key>\s*<string>Profile Service<\/string>/);
      expect(profile).toMatch(/<key>PayloadOrganization<\/key>\s*<string>Acme QA<\/string>/);
      return { url: /<key>URL<\/key>\s*<string>([^<]+)<\/string>/.exec(profile)![1]!, challenge: /<key>Challenge<\/key>\s*<string>([^<]+)<\/string>/.exec(profile)![1]! };
    }

    const postAnswer = (url: string, body: Buffer) => fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/pkcs7-signature' }, redirect: 'manual' });

    it('when a tester installs the /udid profile, then the device\'s signed answer registers it, Safari lands on their devices, and each build says whether it installs on it', async () => {
      const page = await fetch(`${hangar.baseUrl}/udid`, { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('href="/udid/profile.mobileconfig"');
      expect(await (await fetch(`${hangar.baseUrl}/udid`)).text()).toContain('Sign in as a tester on this device first');
      expect((await fetch(`${hangar.baseUrl}/udid/profile.mobileconfig`)).status).toBe(401);

      const { url, challenge } = await downloadProfile();
      expect(url).toBe(`${hangar.baseUrl}/udid/register?t=${encodeURIComponent(challenge)}`);
      const listedUdid = iosRelease.profileUdids[0]!;
      const newUdid = '00008030-00AA00BB00CC00DD';
      expect(iosRelease.profileUdids.map((u) => u.toLowerCase())).not.toContain(newUdid.toLowerCase());

      // A forged answer, another profile's challenge, and an answer echoing a different challenge register nothing.
      const answer = signedDeviceAnswer(phone, { UDID: newUdid, PRODUCT: 'iPhone15,2', VERSION: '21A329', DEVICE_NAME: 'iPhone', CHALLENGE: challenge });
      const forged = Buffer.from(answer);
      forged[forged.indexOf(Buffer.from('21A329'))] = 0x33;
      expect((await postAnswer(url, forged)).status).toBe(400);
      expect((await postAnswer(`${hangar.baseUrl}/udid/register?t=udid:1.9999999999.x`, answer)).status).toBe(401);
      const echoingAnother = signedDeviceAnswer(phone, { UDID: newUdid, PRODUCT: 'iPhone15,2', VERSION: '21A329', CHALLENGE: 'another' });
      expect((await postAnswer(url, echoingAnother)).status).toBe(401);
      expect((await postAnswer(url, Buffer.from('not cms'))).status).toBe(400);
      expect((await api('GET', '/api/tester', { headers: { cookie } })).body.devices).toEqual([]);

      const registered = await postAnswer(url, answer);
      expect(registered.status).toBe(301);
      const location = registered.headers.get('location')!;
      expect(location).toMatch(/^\/tester\/devices\?registered=\d+$/);
      const outId = Number(location.split('=')[1]);
      // The same phone installing the profile again is the same device.
      expect((await postAnswer(url, answer)).headers.get('location')).toBe(location);
      const second = await postAnswer(url, signedDeviceAnswer(phone, { UDID: listedUdid, PRODUCT: 'iPad8,1', VERSION: '20G75', DEVICE_NAME: 'Studio iPad', CHALLENGE: challenge }));
      expect(second.status).toBe(301);
      const inId = Number(second.headers.get('location')!.split('=')[1]);

      // The tester names the new phone, then their builds say which device each leaves out.
      const renamed = await api('PATCH', `/api/tester/devices/${outId}`, { headers: { cookie }, json: { name: "Jane's iPhone 15" } });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ id: outId, name: "Jane's iPhone 15", udid: newUdid, product: 'iPhone15,2', os_version: '21A329' });
      expect((await api('PATCH', `/api/tester/devices/${outId}`, { json: { name: 'x' } })).status).toBe(401);
      const view = await api('GET', '/api/tester', { headers: { cookie } });
      expect(view.body.devices.map((d: { id: number; name: string }) => [d.id, d.name])).toEqual([
        [outId, "Jane's iPhone 15"],
        [inId, 'Studio iPad'],
      ]);
      expect(view.body.channels[0].builds).toEqual([expect.objectContaining({ id: iosRelease.id, left_out_devices: [outId] })]);

      const devicesPage = await (await fetch(`${hangar.baseUrl}/tester/devices?registered=${outId}`, { headers: { cookie } })).text();
      expect(devicesPage).toContain('Registered. Give it a name you will recognise.');
      expect(devicesPage).toMatch(new RegExp(`device-${outId}[\\s\\S]*won't install: not made for this device[\\s\\S]*device-${inId}[\\s\\S]*installs`));

      // The build's page warns before the install is tried, naming the device; without the phone it would not.
      const releasePage = await (await fetch(`${hangar.baseUrl}/releases/${iosRelease.id}`, { headers: { cookie } })).text();
      expect(releasePage).toContain("This build won't install on Jane&#39;s iPhone 15");
      expect(releasePage).not.toContain('Studio iPad');

      // The app's admin sees the device the newest build leaves out, with Apple's list file.
      const listed = await api('GET', `/api/channels/${iosChannelId}/tester_devices`, { token: hangar.adminToken });
      expect(listed.status).toBe(200);
      expect(listed.body).toMatchObject({ latest_build: { id: iosRelease.id, profile_lists_devices: true }, missing: 1 });
      expect(listed.body.devices.map((d: { udid: string; in_latest_build: string; tester_email: string }) => [d.udid, d.in_latest_build, d.tester_email])).toEqual([
        [newUdid, 'out', 'ios@example.com'],
        [listedUdid, 'in', 'ios@example.com'],
      ]);
      expect(listed.body.apple_device_list).toBe(`Device ID\tDevice Name\tDevice Platform\n${newUdid}\tJane's iPhone 15\tios\n`);

      // The CLI prints the same, and with --missing Apple's file alone.
      const home = cliHome();
      try {
        const env = { ...home.env, HANGAR_URL: hangar.baseUrl, HANGAR_TOKEN: hangar.adminToken };
        const table = await runCli(['testers', 'devices', '--channel', String(iosChannelId)], env);
        expect([table.code, table.stderr]).toEqual([0, '']);
        expect(table.stdout).toMatch(new RegExp(`Jane's iPhone 15\\s+iPhone15,2\\s+ios@example\\.com\\s+${newUdid}\\s+out`));
        expect(table.stdout).toContain(`build ${iosRelease.id} (1.2.3 5) leaves out 1; --missing prints them for Apple`);
        const file = await runCli(['testers', 'devices', '--channel', String(iosChannelId), '--missing'], env);
        expect([file.code, file.stdout]).toEqual([0, listed.body.apple_device_list]);
      } finally {
        home.remove();
      }

      // Removed from the page's form; the challenge was in no log.
      const removed = await fetch(`${hangar.baseUrl}/tester/devices/${inId}/remove`, { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
      expect(removed.status).toBe(303);
      expect((await api('GET', '/api/tester', { headers: { cookie } })).body.devices.map((d: { id: number }) => d.id)).toEqual([outId]);
      expect((await api('DELETE', `/api/tester/devices/${inId}`, { headers: { cookie } })).status).toBe(404);
      const mac = challenge.split('.')[2]!;
      for (const name of ['gateway', 'apps']) expect(hangar.logOf(name)).not.toContain(mac);
    });

    it("when the admin opens the app's testers and the tester their devices and the build on a phone, then each sees the device the build leaves out; each page axe-clean at phone and desktop sizes", async () => {
      const browser = await launchChromium();
      try {
        const admin = await (await browser.newContext({ viewport: DESKTOP })).newPage();
        await signIn(admin, hangar.baseUrl, 'admin@e2e.test', hangar.adminPassword);
        await admin.goto(`${hangar.baseUrl}/apps/${iosAppId}/settings`);
        const panel = admin.locator('article', { has: admin.getByRole('heading', { name: /^Devices · / }) });
        await panel.getByRole('cell', { name: /Jane's iPhone 15/ }).waitFor();
        await panel.getByText('leaves out 1 of 1 device').waitFor();
        await panel.getByRole('button', { name: `Copy the device list of channel ${iosChannelId}` }).waitFor();
        await panel.scrollIntoViewIfNeeded();
        await lookAt(admin, 'settings-tester-devices');

        const context = await browser.newContext({ viewport: PHONE });
        const [name, value] = cookie.split('=') as [string, string];
        await context.addCookies([{ name, value, url: hangar.baseUrl }]);
        const tester = await context.newPage();
        await tester.goto(`${hangar.baseUrl}/tester/devices`);
        await tester.getByRole('heading', { name: "Jane's iPhone 15" }).waitFor();
        await lookAt(tester, 'tester-devices');
        await tester.goto(`${hangar.baseUrl}/releases/${iosRelease.id}`);
        await tester.getByRole('heading', { name: "This build won't install on Jane's iPhone 15" }).waitFor();
        await lookAt(tester, 'tester-release-left-out');
        await tester.goto(`${hangar.baseUrl}/udid`);
        await tester.getByRole('link', { name: 'Download profile' }).waitFor();
        await lookAt(tester, 'tester-udid');
      } finally {
        await browser.close();
      }
    });

    it('when a developer of the app, or a stranger, asks for its channel\'s devices, then it is refused', async () => {
      const developer = await createUserWithToken(api, hangar.adminToken, 'devices-dev', 'developer');
      expect((await api('GET', `/api/channels/${iosChannelId}/tester_devices`, { token: developer.token })).status).toBe(403);
      await api('POST', `/api/apps/${iosAppId}/collaborators`, { token: hangar.adminToken, json: { user_id: developer.id, role: 'developer' } });
      expect((await api('GET', `/api/channels/${iosChannelId}/tester_devices`, { token: developer.token })).status).toBe(403);
      expect((await api('GET', `/api/channels/${iosChannelId}/tester_devices`)).status).toBe(401);
    });
  });

  it('when an admin invites in the console and the tester follows the e-mail on a phone, then the tester opens the build and, notified of the next, opens that one; removed, they are locked out; each page axe-clean at phone and desktop sizes', async () => {
    const browser = await launchChromium();
    try {
      const admin = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      await signIn(admin, hangar.baseUrl, 'admin@e2e.test', hangar.adminPassword);
      await admin.goto(`${hangar.baseUrl}/apps/${appId}/settings`);
      await admin.getByRole('heading', { name: 'Testers', exact: true }).waitFor();
      const newGroup = admin.locator('form', { has: admin.getByRole('button', { name: 'Create group' }) });
      await newGroup.getByLabel('Group name').fill('Browser testers');
      await newGroup.getByLabel(/Android/).check();
      await newGroup.getByRole('button', { name: 'Create group' }).click();
      const group = admin.locator('article', { has: admin.getByRole('heading', { name: /^Browser testers/ }) });
      await group.getByLabel(/Add testers/).fill('Phone Tester <phone@example.com>');
      await group.getByRole('button', { name: 'Invite' }).click();
      await group.getByRole('cell', { name: 'phone@example.com', exact: true }).waitFor();
      await lookAt(admin, 'settings-testers');

      const tester = await (await browser.newContext({ viewport: PHONE })).newPage();
      await tester.goto(signInLinkIn(await mailTo('phone@example.com')));
      await tester.getByRole('heading', { name: 'Your builds' }).waitFor();
      await lookAt(tester, 'tester-builds');
      await tester.getByRole('link', { name: /1\.2\.3 \(5\)/ }).first().click();
      await tester.getByRole('link', { name: /Download/ }).waitFor();
      await lookAt(tester, 'tester-release');

      // Notified of the next build: its e-mail's Install button (a single-use sign-in link on this
      // protected channel) opens the new build's page on the phone.
      const next = await api('POST', '/api/apps/upload', {
        token: hangar.adminToken,
        form: { channel_key: channelKey, changelog: 'Ready for the phone' },
        files: { file: { data: fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk')), fileName: 'android.apk' } },
      });
      expect(next.status).toBe(201);
      const newBuildMail = (await eventuallyValue(() => inbox.find((m) => JSON.stringify(m.to ?? '').includes('phone@example.com') && (m.text ?? '').includes(`/releases/${next.body.id}`)), (m) => m !== undefined, { timeoutMs: 20_000 }))!;
      await tester.goto(/Install it: (\S+)/.exec(newBuildMail.text!)![1]!);
      await tester.waitForURL(`${hangar.baseUrl}/releases/${next.body.id}`);
      await tester.getByText('Ready for the phone').waitFor();

      await group.getByRole('button', { name: 'Remove phone@example.com' }).click();
      await group.getByRole('cell', { name: 'phone@example.com', exact: true }).waitFor({ state: 'detached' });
      await tester.goto(`${hangar.baseUrl}/tester`);
      await tester.getByText('Your tester session has ended').waitFor();
      await lookAt(tester, 'tester-ended');
    } finally {
      await browser.close();
    }
  });

  it('when someone who is not the app\'s admin manages its testers, then it is refused', async () => {
    const developer = await createUserWithToken(api, hangar.adminToken, 'tester-dev', 'developer');
    const listed = await api('GET', `/api/apps/${appId}/tester_groups`, { token: developer.token });
    expect(listed.status).toBe(403);
    const added = await api('POST', `/api/apps/${appId}/tester_groups/${groupId}/testers`, { token: developer.token, form: { emails: 'eve@example.com' } });
    expect(added.status).toBe(403);
    expect((await api('GET', '/api/tester')).status).toBe(401);
  });
});
