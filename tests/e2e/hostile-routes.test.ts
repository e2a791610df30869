import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { RunningHangar, apiClient, fixturesDir, startHangar, uniqueName } from '@hangar/testing';

/**
 * No request takes a process down, and a hostile suite that keeps looking for one:
 *
 * - a JSON body nested 20,000 deep once killed the gateway after its answer (the audit entry's
 *   JSON.stringify overflowed the stack outside any handler), cutting off every upload in flight;
 * - a property-based sweep over EVERY operation of the served OpenAPI document — paths, query
 *   strings and bodies from the document, bent: deep nesting, huge values, arrays where scalars go,
 *   wrong types, malformed percent-encodings, NUL bytes — as a stranger, a member and an admin.
 *   Never a 5xx, no process exits, the tokens used never come back in an answer, and a write
 *   answered 4xx changes no listing.
 *
 * Budget: HANGAR_FUZZ_SECONDS (default 25, what every `npm test` spends); `npm run fuzz` runs it
 * longer (scripts/fuzz-routes.mjs). A failure prints fast-check's seed and path: set
 * HANGAR_FUZZ_SEED (and HANGAR_FUZZ_PATH) to replay it.
 */
describe('hostile requests to every route', () => {
  const PROCESSES = ['gateway', 'users', 'apps', 'releases', 'debug-files', 'webhooks'];
  const REQUEST_TIMEOUT_MS = 30_000;
  const FUZZ_SECONDS = Number(process.env.HANGAR_FUZZ_SECONDS ?? 25);
  let hangar: RunningHangar;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  let member: string;
  let memberId: number;
  let pidsAtStart: number[];
  /** Real ids of things made for this suite, by path parameter name. */
  const real: Record<string, string[]> = {};

  const fixture = (...parts: string[]) => fs.readFileSync(path.join(fixturesDir(), ...parts));
  const deepJson = (depth: number) => `{"name":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  const processExits = () => hangar.output().split('\n').filter((line) => / exited \(/.test(line));

  beforeAll(async () => {
    // Hostile tokens and passwords are part of the sweep: the failed-attempt limits would soon
    // answer 429 to everything from this address and leave the routes behind them unswept.
    hangar = await startHangar({ TOKEN_MAX_FAILURES: '1000000', SIGN_IN_MAX_ATTEMPTS: '1000000', SIGN_IN_MAX_ATTEMPTS_PER_ADDRESS: '1000000', UNLOCK_MAX_FAILURES: '1000000' });
    api = apiClient(hangar.baseUrl);
    admin = hangar.adminToken;
    pidsAtStart = PROCESSES.flatMap((name) => hangar.pidsOf(name));
    const user = await api('POST', '/api/users', { token: admin, form: { username: uniqueName('member'), email: `${uniqueName('member')}@example.com`, password: 'member-password-1', role: 'member' } });
    expect(user.status).toBe(201);
    memberId = user.body.id;
    const token = await api('POST', `/api/users/${memberId}/tokens`, { token: admin, form: { name: 'fuzz' } });
    expect(token.status).toBe(201);
    member = token.body.token;
  });

  afterAll(async () => {
    await hangar?.stop();
  });

  describe('a body nested 20,000 deep while an upload is in flight', () => {
    /** A multipart upload whose file part waits for `release` halfway: in flight for as long as the test wants. */
    function heldUpload(release: Promise<void>): Promise<Response> {
      const file = fixture('apps', 'android.apk');
      const boundary = 'held-upload-boundary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${uniqueName('held')}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="android.apk"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const half = Math.floor(file.length / 2);
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(head);
          controller.enqueue(file.subarray(0, half));
          await release;
          controller.enqueue(file.subarray(half));
          controller.enqueue(tail);
          controller.close();
        },
      });
      return fetch(`${hangar.baseUrl}/api/apps/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
        signal: AbortSignal.timeout(120_000),
      } as RequestInit);
    }

    it('when it goes to POST /api/sessions and POST /api/apps (with and without a token), then each is a 400, the upload still ends 201, and no process restarts', async () => {
      const exitsBefore = processExits();
      let release!: () => void;
      const upload = heldUpload(new Promise<void>((resolve) => (release = resolve)));
      try {
        // The upload's file part is held open halfway: it cannot end before the hostile requests are answered.
        for (const [route, token] of [['/api/sessions', undefined], ['/api/apps', undefined], ['/api/apps', admin]] as const) {
          for (const type of ['application/json', 'application/x-www-form-urlencoded']) {
            const body = type === 'application/json' ? deepJson(20_000) : `name${'[a]'.repeat(20_000)}=x`;
            const res = await fetch(`${hangar.baseUrl}${route}`, {
              method: 'POST',
              headers: { 'content-type': type, ...(token ? { authorization: `Bearer ${token}` } : {}) },
              body,
              signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
            });
            const answer = { route, type, token: Boolean(token), status: res.status, body: (await res.json()) as { error?: unknown } };
            // JSON: refused for its depth (400) before anything walks it. Urlencoded bodies are flat
            // (no qs nesting), so `name[a][a]…` is one oddly named field: the route's own refusal.
            expect({ ...answer, refused: answer.status >= 400 && answer.status < 500 && typeof answer.body.error === 'string' }).toEqual({ ...answer, refused: true });
            if (type === 'application/json') expect(answer.status).toBe(400);
          }
        }
        // The answers are sent; the audit entries are made just after them. The gateway still answers.
        expect((await api('GET', '/api/health')).status).toBe(200);
      } finally {
        release();
      }
      const res = await upload;
      expect(res.status).toBe(201);
      expect(hangar.pidsOf('gateway')).toEqual(pidsAtStart.slice(0, hangar.replicas));
      expect(processExits()).toEqual(exitsBefore);
    });
  });

  describe('every documented operation, bent (property-based)', () => {
    type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[]; $ref?: string };
    interface Parameter {
      name: string;
      in: 'path' | 'query' | 'header' | 'cookie';
      schema?: Schema;
    }
    interface Operation {
      operationId: string;
      method: string;
      template: string;
      parameters: Parameter[];
      bodies: Array<{ type: string; fields: Record<string, Schema> }>;
    }
    type Who = 'stranger' | 'member' | 'admin';
    interface Sent {
      op: Operation;
      who: Who;
      url: string;
      headers: Record<string, string>;
      body?: Buffer | string | FormData;
    }

    let operations: Operation[] = [];

    /** Every operation of the served document, its parameters ($ref resolved) and body fields by media type. */
    async function documentedOperations(): Promise<Operation[]> {
      const document = (await api('GET', '/api/openapi.json')).body as {
        paths: Record<string, Record<string, unknown> & { parameters?: Array<Parameter | { $ref: string }> }>;
        components: { parameters: Record<string, Parameter> };
      };
      const resolve = (p: Parameter | { $ref: string }): Parameter => ('$ref' in p ? document.components.parameters[p.$ref.split('/').pop()!]! : p);
      const out: Operation[] = [];
      for (const [template, item] of Object.entries(document.paths)) {
        for (const method of ['get', 'head', 'post', 'put', 'patch', 'delete', 'options']) {
          const op = item[method] as { operationId?: string; parameters?: Array<Parameter | { $ref: string }>; requestBody?: { content?: Record<string, { schema?: Schema }> } } | undefined;
          if (!op?.operationId) continue;
          out.push({
            operationId: op.operationId,
            method: method.toUpperCase(),
            template,
            parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])].map(resolve),
            bodies: Object.entries(op.requestBody?.content ?? {}).map(([type, media]) => ({ type, fields: media.schema?.properties ?? {} })),
          });
        }
      }
      return out;
    }

    // ------------------------------------------------------------------ hostile values

    const HUGE = 'é9'.repeat(100_000);
    const hostileText = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.constantFrom('', ' ', '0', '-1', '1.5', '1e999', '9999999999999999', '99999999999999999999', 'NaN', 'null', 'true', '[]', '{}', '%', '%zz', '%E0%A4%A', 'a\u0000b', '\u0000', '__proto__', 'constructor', '../../etc/passwd', '<script>', 'me'),
      fc.nat({ max: 10 }).map((n) => 'x'.repeat(2 ** n * 10)),
      fc.constant(HUGE),
    );
    /** JSON values of the wrong kind for any field: arrays, objects, numbers, deep nesting. */
    const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
      hostileText,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(hostileText, { maxLength: 4 }),
      fc.jsonValue({ maxDepth: 4 }),
      fc.integer({ min: 2, max: 64 }).map((depth) => JSON.parse(`${'['.repeat(depth)}"x"${']'.repeat(depth)}`)),
      fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'a', '$where', 'x.y'), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
    );
    const safeEncode = (text: string) => {
      try {
        return encodeURIComponent(text);
      } catch {
        return '%ED%A0%80'; // a lone surrogate, as UTF-8 would have it
      }
    };
    /** A path segment: real ids of this suite's things, or noise. Never `.`/`..` (fetch resolves them away). */
    const segment = (name: string) =>
      fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(...(real[name]?.length ? real[name] : ['1'])) },
        { weight: 3, arbitrary: hostileText.filter((t) => t.length > 0 && t !== '.' && t !== '..').map(safeEncode) },
        { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', 'a%00b', '%C0%AF', '%2F', '0', '-0', '99999999999999999999') },
      );
    const queryOf = (names: string[]) =>
      fc
        .array(
          fc.tuple(
            fc.oneof(fc.constantFrom(...names, 'token', 'a[b][c]', `${'a'}${'[x]'.repeat(40)}`, '__proto__'), fc.string({ maxLength: 8 })),
            fc.oneof(hostileText.map(safeEncode), fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', 'a%2', ...Object.values(real).flat())),
          ),
          { maxLength: 6 },
        )
        .map((pairs) => pairs.map(([k, v]) => `${safeEncode(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${v}`).join('&'));

    /** A body for one of the operation's documented media types (or a stray one), its fields bent. */
    type Body = { type?: string; body?: Buffer | string | FormData };
    function bodyOf(op: Operation): fc.Arbitrary<Body | undefined> {
      const documented = op.bodies.length > 0 ? op.bodies : [{ type: 'application/json', fields: {} as Record<string, Schema> }];
      const fieldsOf = (fields: Record<string, Schema>) =>
        fc.dictionary(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...Object.keys(fields), 'token') }, fc.string({ maxLength: 8 })), hostileJson, { maxKeys: 6 });
      return fc.oneof<[fc.Arbitrary<undefined>, fc.Arbitrary<Body>]>(
        fc.constant(undefined),
        fc.constantFrom(...documented).chain(({ type, fields }): fc.Arbitrary<Body> => {
          if (type === 'application/json') {
            return fc.oneof(
              { weight: 5, arbitrary: fieldsOf(fields).map((o) => ({ type, body: JSON.stringify(o) })) },
              { weight: 1, arbitrary: fc.constantFrom(deepJson(20_000), '{"name":', '[1,2,3]', '"text"', '{"__proto__":{"admin":true}}', `{"name":"${'x'.repeat(2_000_000)}"}`).map((body) => ({ type, body })) },
            );
          }
          const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
          if (type === 'application/x-www-form-urlencoded') {
            return fieldsOf(fields).map((o) => ({ type, body: Object.entries(o).map(([k, v]) => `${safeEncode(k)}=${Array.isArray(v) ? v.map((x) => safeEncode(asText(x))).join(`&${safeEncode(k)}=`) : safeEncode(asText(v))}`).join('&') + '&x%zz=%' }));
          }
          if (type === 'multipart/form-data') {
            return fc.tuple(fieldsOf(fields), fc.uint8Array({ maxLength: 4096 })).map(([o, bytes]) => {
              const form = new FormData();
              for (const [k, v] of Object.entries(o)) form.append(k, asText(v));
              if ('file' in fields) form.append('file', new Blob([Buffer.from(bytes)]), 'noise.ipa');
              return { body: form };
            });
          }
          return fc.uint8Array({ maxLength: 4096 }).map((bytes) => ({ type, body: Buffer.from(bytes) }));
        }),
      );
    }

    function requestOf(op: Operation): fc.Arbitrary<Sent> {
      const pathNames = [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const queryNames = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
      const headerNames = op.parameters.filter((p) => p.in === 'header').map((p) => p.name);
      return fc
        .record({
          who: fc.constantFrom<Who>('stranger', 'member', 'admin'),
          segments: fc.tuple(...pathNames.map((name) => segment(name)), fc.constant('')),
          query: queryOf(queryNames.length > 0 ? queryNames : ['page']),
          headers: fc.dictionary(fc.constantFrom(...headerNames, 'x-request-id', 'x-forwarded-for'), hostileText.map((t) => t.replace(/[^\t\x20-\x7e]/g, '?').slice(0, 4000)), { maxKeys: 3 }),
          body: bodyOf(op),
        })
        .map(({ who, segments, query, headers, body }) => {
          let i = 0;
          const pathname = op.template.replace(/\{([^}]+)\}/g, () => segments[i++]!);
          const token = who === 'admin' ? admin : who === 'member' ? member : undefined;
          return {
            op,
            who,
            url: `${pathname}${query ? `?${query}` : ''}`,
            headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body?.type ? { 'content-type': body.type } : {}) },
            body: body?.body,
          };
        });
    }

    // ------------------------------------------------------------------ what a 4xx must not change

    /** What the write operations can change, read by the bootstrap admin: ids and names, not timestamps. */
    async function listings(): Promise<string> {
      const read = async (url: string, pick: (item: Record<string, unknown>) => unknown) => {
        const res = await fetch(`${hangar.baseUrl}${url}`, { headers: { authorization: `Bearer ${admin}` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        const body = (await res.json().catch(() => undefined)) as { releases?: unknown } | unknown[] | undefined;
        // A list, or the releases of a channel's versions; never counters (downloads are counted off the request path).
        const items = Array.isArray(body) ? body : Array.isArray(body?.releases) ? body.releases : [];
        return [url, res.status, (items as Array<Record<string, unknown>>).map(pick)];
      };
      const [appId] = real.app_id!;
      const [schemeId] = real.scheme_id!;
      return JSON.stringify(
        await Promise.all([
          read('/api/apps?per_page=100', (a) => [a.id, a.name]),
          read('/api/users?per_page=100', (u) => [u.id, u.username, u.email, u.role]),
          read(`/api/users/${memberId}/tokens`, (t) => t.id),
          read('/api/users/me/tokens', (t) => t.id),
          read(`/api/apps/${appId}/schemes`, (s) => [s.id, s.name, (s.channels as Array<{ id: number; name: string; slug: string }>)?.map((c) => [c.id, c.name, c.slug])]),
          read(`/api/schemes/${schemeId}/channels`, (c) => [c.id, c.name, c.slug, c.device_type]),
          read(`/api/apps/${appId}/collaborators`, (c) => [c.id, c.role]),
          read(`/api/apps/${appId}/webhooks`, (w) => [w.id, w.url]),
          read(`/api/apps/versions?channel_key=${real.slug![0]}&per_page=100`, (r) => [r.id, r.release_version, r.build_version]),
        ]),
      );
    }

    beforeAll(async () => {
      operations = await documentedOperations();
      const form = new FormData();
      form.append('name', uniqueName('fuzz'));
      form.append('file', new Blob([fixture('apps', 'android.apk')]), 'android.apk');
      const created = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
      const release = (await created.json()) as { id: number; app: { id: number }; scheme: { id: number }; channel: { id: number; slug: string } };
      expect(created.status).toBe(201);
      const ids = {
        id: [release.id, release.app.id, release.scheme.id, release.channel.id, memberId],
        app_id: [release.app.id],
        scheme_id: [release.scheme.id],
        user_id: [memberId],
        slug: [release.channel.slug],
        credential: [member, 'x'],
      };
      for (const [name, values] of Object.entries(ids)) real[name] = values.map(String);
    });

    it(`for HANGAR_FUZZ_SECONDS (${FUZZ_SECONDS} s), requests to any operation as anyone: never a 5xx, no token echoed, nothing changed by a 4xx, no process exit`, async () => {
      expect(operations.length).toBeGreaterThan(80);
      const exitsBefore = processExits();
      const seen = new Map<string, number>();
      const seed = process.env.HANGAR_FUZZ_SEED ? Number(process.env.HANGAR_FUZZ_SEED) : undefined;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...operations).chain(requestOf), async (sent) => {
          const label = `${sent.who} ${sent.op.method} ${sent.url.slice(0, 300)}`;
          const write = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(sent.op.method);
          // Read just before the write: what earlier writes set off (cascades) has had its time.
          const before = write ? await listings() : '';
          let status: number;
          let text: string;
          try {
            const res = await fetch(`${hangar.baseUrl}${sent.url}`, {
              method: sent.op.method,
              headers: sent.headers,
              body: sent.op.method === 'GET' || sent.op.method === 'HEAD' ? undefined : sent.body,
              redirect: 'manual',
              signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
            });
            status = res.status;
            text = await res.text();
          } catch (error) {
            // Past Node's 16 KiB header limit the server answers 431 and closes at once, which fetch
            // may see as a reset; only then, and only while the gateway still answers.
            if (sent.url.length + JSON.stringify(sent.headers).length <= 16 * 1024) throw new Error(`${label}: ${(error as Error).message}`);
            expect((await api('GET', '/api/health')).status).toBe(200);
            return;
          }
          seen.set(sent.op.operationId, (seen.get(sent.op.operationId) ?? 0) + 1);
          if (status >= 500) throw new Error(`${label} → ${status} ${text.slice(0, 500)}`);
          for (const secret of [admin, member]) if (text.includes(secret)) throw new Error(`${label} → ${status}: the answer holds a token that was sent`);
          if (write && status >= 400) {
            const after = await listings();
            if (after !== before) throw new Error(`${label} → ${status}, yet the listings changed:\n${before}\n${after}`);
          }
        }),
        {
          numRuns: 1_000_000,
          interruptAfterTimeLimit: FUZZ_SECONDS * 1000,
          markInterruptAsFailure: false,
          ...(seed !== undefined ? { seed, ...(process.env.HANGAR_FUZZ_PATH ? { path: process.env.HANGAR_FUZZ_PATH } : {}) } : {}),
        },
      );
      // eslint-disable-next-line no-console
      console.log(`hostile sweep: ${[...seen.values()].reduce((a, b) => a + b, 0)} requests over ${seen.size} of ${operations.length} operations`);
      expect(PROCESSES.flatMap((name) => hangar.pidsOf(name))).toEqual(pidsAtStart);
      expect(processExits()).toEqual(exitsBefore);
      expect((await api('GET', '/api/health')).status).toBe(200);
    }, (FUZZ_SECONDS + 120) * 1000);
  });
});
