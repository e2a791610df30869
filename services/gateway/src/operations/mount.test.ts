import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { Type } from '@sinclair/typebox';
import { createLogger } from '@hangar/logger';
import { errorHandler } from '../http/error-handler';
import { idParam, operation } from './declare';
import { mountOperations } from './mount';

/** The route a declaration mounts: ids read, bodies checked, other operations' names stepped aside for. */
describe('a declared operation mounted on express', () => {
  const declared = operation({
    method: 'put',
    path: '/api/things/{id}',
    operationId: 'updateThing',
    tag: 'Things',
    summary: 'Update a thing',
    // No token read: the test needs no users service.
    scopes: null,
    params: { id: idParam('Thing id', new Set(['upload'])) },
    body: { fields: { name: Type.String() } },
    responses: {},
    async handle({ params, body, res }) {
      res.json({ id: params.id, name: body.name ?? null });
    },
  });
  const logger = createLogger({ service: 'mount-test', level: 'fatal', destination: new Writable({ write: (_c, _e, d) => d() }) });
  const app = express();
  app.use(express.json());
  app.use(mountOperations([declared], { clients: {} as never }));
  app.use((_req, res) => res.status(404).json({ error: 'Not found' }));
  app.use(errorHandler(logger));
  let base = '';
  const server = app.listen(0, '127.0.0.1');
  beforeAll(async () => {
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());
  const put = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };

  it('when the id and the body are right, then the handler gets the id as a number and the declared fields', async () => {
    expect(await put('/api/things/7', { name: 'beta', other: 1 })).toEqual({ status: 200, body: { id: 7, name: 'beta' } });
  });

  it('when the id is not one, then 422 naming it, before the handler', async () => {
    expect(await put('/api/things/seven', { name: 'beta' })).toMatchObject({ status: 422, body: { entry: { id: ['must be a positive integer'] } } });
  });

  it('when a field has the wrong type, then 422 naming it, before the handler', async () => {
    expect(await put('/api/things/7', { name: ['beta'] })).toMatchObject({ status: 422, body: { entry: { name: ['must be a string'] } } });
  });

  it("when the path names another operation's place, then the route steps aside (404 here), not 422", async () => {
    expect(await put('/api/things/upload', {})).toEqual({ status: 404, body: { error: 'Not found' } });
  });
});
