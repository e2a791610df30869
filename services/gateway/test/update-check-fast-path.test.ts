import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { GENERATION_KEYS, Generations, openGenerations } from '@hangar/cache';
import { connectEventBus, EventBus } from '@hangar/events';
import { createLogger } from '@hangar/logger';
import { Metrics } from '@hangar/metrics';
import type { releases } from '@hangar/proto';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { CachedUpdateChecks } from '../src/clients/cached-update-checks';
import { presentUpdateCheck } from '../src/presenters/release.presenter';
import { withUpdateCheckFastPath } from '../src/features/update-checks/update-check.fast-path';

/**
 * Which update checks the gateway answers before express, against real NATS
 * generations: held answers only, everything else handed to express (here a
 * listener that records what it got) untouched. That the two answer alike is
 * shown end to end (tests/e2e/downloads-and-update-checks.test.ts).
 */
describe('gateway: update checks answered before express', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('uc-fast');
  const logger = createLogger({ service: 'update-check-fast-path-test', level: 'warn', destination: new Writable({ write: (_c, _e, d) => d() }) });
  const CHANNEL_ID = 7;
  const CHANNEL_KEY = 'fast-path-channel';
  let bus: EventBus;
  let generations: Generations;
  let server: Server;
  let base: string;
  let updateChecks: CachedUpdateChecks;
  let releasesAnswer: () => Promise<releases.UpdateCheck>;
  let releasesCalls = 0;
  const toExpress: string[] = [];
  const metrics = new Metrics({ defaultMetrics: false });

  const answer = (updateAvailable: boolean): releases.UpdateCheck => ({ updateAvailable, mandatory: false, context: { channel: { id: CHANNEL_ID } } }) as unknown as releases.UpdateCheck;
  const query = { channelKey: CHANNEL_KEY, bundleId: 'com.example.app', releaseVersion: '1.0', buildVersion: '5', releaseHash: '' };
  const path = `/api/apps/update_check?channel_key=${CHANNEL_KEY}&bundle_id=com.example.app&release_version=1.0&build_version=5`;

  /**
   * What the express route does: asks the releases service through the cache. A channel key's
   * first check teaches its channel id, the next is held (clients/cached-update-checks.ts).
   */
  const answerThroughRoute = async (baseUrl: string) => {
    const view = { baseUrl, timeZone: undefined, present: (a: releases.UpdateCheck) => presentUpdateCheck(a, baseUrl) };
    await updateChecks.answer(query, view);
    return updateChecks.answer(query, view);
  };

  beforeAll(async () => {
    bus = await connectEventBus(infra.natsUrl, 'update-check-fast-path-test', logger);
    generations = await openGenerations(bus.nc, prefix);
    releasesAnswer = async () => answer(false);
    updateChecks = new CachedUpdateChecks(
      {
        checkForUpdate: (async () => {
          releasesCalls += 1;
          return releasesAnswer();
        }) as never,
      },
      generations,
      { capacity: 100, maxAgeMs: 60_000 },
    );
    const express = (req: IncomingMessage, res: ServerResponse) => {
      toExpress.push(`${req.method} ${req.url}`);
      res.writeHead(299).end('express');
    };
    server = createServer(withUpdateCheckFastPath(express, { updateChecks, logger, metrics }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await bus?.nc.drain();
  });

  beforeEach(() => {
    toExpress.length = 0;
  });

  const get = (url: string, headers: Record<string, string> = {}) => fetch(`${base}${url}`, { headers });

  it('when an answer is not held yet, then express answers it', async () => {
    const res = await get(path);
    expect(res.status).toBe(299);
    expect(toExpress).toEqual([`GET ${path}`]);
  });

  it('when the answer is held, then it is answered without express: body, validator, cache header, request id, and a 304 for its ETag', async () => {
    const held = await answerThroughRoute(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const calls = releasesCalls;

    const res = await get(path, { 'x-request-id': 'poll-0001' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(held.json);
    expect(res.headers.get('etag')).toBe(held.etag);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toBe('poll-0001');

    const revalidated = await get(path, { 'if-none-match': `W/${held.etag}, "other"` });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');

    expect(toExpress).toEqual([]);
    expect(releasesCalls).toBe(calls); // from memory
    const counted = await metrics.registry.getSingleMetricAsString('hangar_http_requests_total');
    expect(counted).toContain('method="GET",route="/api/apps/update_check",status="200"} 1');
    expect(counted).toContain('method="GET",route="/api/apps/update_check",status="304"} 1');
  });

  it.each([
    ['a token in the header', path, { authorization: 'Bearer some-token' }],
    ['a token in the query', `${path}&token=some-token`, {}],
    ['a console session', path, { cookie: 'hangar_session=abcdefghijklmnopqrstuvwxyz012345' }],
    ['a parameter given twice', `${path}&build_version=6`, {}],
    ['a NUL in a parameter', `${path}&release_hash=%00`, {}],
    ['another path', path.replace('update_check', 'update_checks'), {}],
  ])('when the check comes with %s, then express answers it', async (_case, url, headers) => {
    await answerThroughRoute(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const res = await get(url, headers);
    expect(res.status).toBe(299);
    expect(toExpress).toEqual([`GET ${url}`]);
  });

  it('when the channel changed since the answer was held, then the next check is answered anew, without express', async () => {
    await answerThroughRoute(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    releasesAnswer = async () => answer(true);
    await generations.bump([GENERATION_KEYS.channelReleases(CHANNEL_ID)]);

    const res = await get(path);
    expect(res.status).toBe(200);
    expect(JSON.parse(await res.text())).toMatchObject({ update_available: true });
    expect(toExpress).toEqual([]);
  });

  it('when answering anew fails, then express gets the request untouched and answers it', async () => {
    await answerThroughRoute(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    releasesAnswer = async () => {
      throw Object.assign(new Error('releases unavailable'), { code: 14 });
    };
    await generations.bump([GENERATION_KEYS.channelReleases(CHANNEL_ID)]);

    const res = await get(path);
    expect(res.status).toBe(299);
    expect(await res.text()).toBe('express');
    expect(toExpress).toEqual([`GET ${path}`]);
    releasesAnswer = async () => answer(false);
  });
});
