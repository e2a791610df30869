import { ApiClient, ApiResponse, RunningHangar, apiClient, createUserWithToken, sharedHangar } from '@hangar/testing';

/**
 * The permission matrix of PRODUCT §2 over HTTP: every apps / schemes /
 * channels / collaborators route × every kind of caller. Each cell runs on a
 * fresh app, asserts its status, and re-reads the app to assert that a
 * denied call changed nothing (and that an allowed write did change it).
 */
type ActorName = 'globalAdmin' | 'appAdmin' | 'appDeveloper' | 'appMember' | 'developerOutsider' | 'memberOutsider' | 'noToken';
const ACTORS: ActorName[] = ['globalAdmin', 'appAdmin', 'appDeveloper', 'appMember', 'developerOutsider', 'memberOutsider', 'noToken'];

interface Fixture {
  appId: number;
  schemeId: number;
  channelId: number;
  spareId: number;
  extraId: number;
}

interface Route {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: (f: Fixture) => string;
  form?: (f: Fixture, marker: string) => Record<string, string>;
  /** Least collaborator role; 'create' and 'list' are the two app-level routes. */
  needs: 'member' | 'developer' | 'admin' | 'create-app' | 'list-apps';
}

const ROUTES: Route[] = [
  { name: 'list apps', method: 'GET', path: () => '/api/apps', needs: 'list-apps' },
  { name: 'create app', method: 'POST', path: () => '/api/apps', form: (_f, marker) => ({ name: marker }), needs: 'create-app' },
  { name: 'get app', method: 'GET', path: (f) => `/api/apps/${f.appId}`, needs: 'member' },
  { name: 'update app', method: 'PUT', path: (f) => `/api/apps/${f.appId}`, form: () => ({ name: 'renamed' }), needs: 'admin' },
  { name: 'delete app', method: 'DELETE', path: (f) => `/api/apps/${f.appId}`, needs: 'admin' },
  { name: 'list schemes', method: 'GET', path: (f) => `/api/apps/${f.appId}/schemes`, needs: 'member' },
  { name: 'create scheme', method: 'POST', path: (f) => `/api/apps/${f.appId}/schemes`, form: () => ({ name: 'New scheme' }), needs: 'developer' },
  { name: 'get scheme', method: 'GET', path: (f) => `/api/schemes/${f.schemeId}`, needs: 'member' },
  { name: 'update scheme', method: 'PUT', path: (f) => `/api/schemes/${f.schemeId}`, form: () => ({ name: 'Renamed', retained_builds: '2' }), needs: 'developer' },
  { name: 'delete scheme', method: 'DELETE', path: (f) => `/api/schemes/${f.schemeId}`, needs: 'developer' },
  { name: 'list channels', method: 'GET', path: (f) => `/api/schemes/${f.schemeId}/channels`, needs: 'member' },
  { name: 'create channel', method: 'POST', path: (f) => `/api/schemes/${f.schemeId}/channels`, form: () => ({ name: 'New', device_type: 'ios' }), needs: 'developer' },
  { name: 'get channel', method: 'GET', path: (f) => `/api/channels/${f.channelId}`, needs: 'member' },
  { name: 'update channel', method: 'PUT', path: (f) => `/api/channels/${f.channelId}`, form: () => ({ name: 'Renamed', password: 'secret' }), needs: 'developer' },
  { name: 'delete channel', method: 'DELETE', path: (f) => `/api/channels/${f.channelId}`, needs: 'developer' },
  { name: 'list collaborators', method: 'GET', path: (f) => `/api/apps/${f.appId}/collaborators`, needs: 'member' },
  { name: 'get collaborator', method: 'GET', path: (f) => `/api/apps/${f.appId}/collaborators/${f.spareId}`, needs: 'member' },
  {
    name: 'add collaborator (user_id in body)',
    method: 'POST',
    path: (f) => `/api/apps/${f.appId}/collaborators`,
    form: (f) => ({ user_id: String(f.extraId), role: 'developer' }),
    needs: 'admin',
  },
  { name: 'add collaborator (user_id in path)', method: 'POST', path: (f) => `/api/apps/${f.appId}/collaborators/${f.extraId}`, form: () => ({ role: 'member' }), needs: 'admin' },
  { name: 'update collaborator', method: 'PUT', path: (f) => `/api/apps/${f.appId}/collaborators/${f.spareId}`, form: () => ({ role: 'developer' }), needs: 'admin' },
  { name: 'remove collaborator', method: 'DELETE', path: (f) => `/api/apps/${f.appId}/collaborators/${f.spareId}`, needs: 'admin' },
];

const SUCCESS = { GET: 200, POST: 201, PUT: 200, DELETE: 200 } as const;

/** The collaborator role each caller holds on the fixture app, and their global role. */
const CALLERS: Record<Exclude<ActorName, 'noToken'>, { global: string; onApp?: 'admin' | 'developer' | 'member' }> = {
  globalAdmin: { global: 'admin' },
  // The app's creator. Global roles are mixed on purpose: a collaborator's
  // rights on the app come from the collaborator role, not the global one.
  appAdmin: { global: 'developer', onApp: 'admin' },
  appDeveloper: { global: 'member', onApp: 'developer' },
  appMember: { global: 'developer', onApp: 'member' },
  developerOutsider: { global: 'developer' },
  memberOutsider: { global: 'member' },
};

const RANK = { member: 1, developer: 2, admin: 3 } as const;

function expectedStatus(route: Route, actor: ActorName): number {
  if (actor === 'noToken') return 401;
  const caller = CALLERS[actor];
  if (route.needs === 'list-apps') return 200;
  if (route.needs === 'create-app') return caller.global === 'member' ? 403 : 201;
  if (caller.global === 'admin') return SUCCESS[route.method];
  return caller.onApp && RANK[caller.onApp] >= RANK[route.needs] ? SUCCESS[route.method] : 403;
}

describe('apps permission matrix over HTTP', () => {
  let hangar: RunningHangar;
  let api: ApiClient;
  const tokens = {} as Record<Exclude<ActorName, 'noToken'>, string>;
  const ids = {} as Record<Exclude<ActorName, 'noToken'> | 'spare' | 'extra', number>;

  const createUser = (label: string, role: string) => createUserWithToken(api, hangar.adminToken, label, role);

  beforeAll(async () => {
    hangar = await sharedHangar();
    api = apiClient(hangar.baseUrl);
    const me = await api('GET', '/api/users/me', { token: hangar.adminToken });
    tokens.globalAdmin = hangar.adminToken;
    ids.globalAdmin = me.body.id;
    for (const name of ACTORS) {
      if (name === 'noToken' || name === 'globalAdmin') continue;
      const user = await createUser(name, CALLERS[name].global);
      tokens[name] = user.token;
      ids[name] = user.id;
    }
    ids.spare = (await createUser('spare', 'member')).id;
    ids.extra = (await createUser('extra', 'member')).id;
  });

  afterAll(async () => {
    await hangar?.stop();
  });

  /** A fresh app made by appAdmin, with one scheme, one channel and the other collaborators. */
  async function fixture(): Promise<Fixture> {
    const owner = tokens.appAdmin;
    const app = await api('POST', '/api/apps', { token: owner, form: { name: `matrix-${Date.now()}-${Math.random()}` } });
    expect(app.status).toBe(201);
    const scheme = await api('POST', `/api/apps/${app.body.id}/schemes`, { token: owner, form: { name: 'Beta' } });
    expect(scheme.status).toBe(201);
    const [channel, ...added] = await Promise.all([
      api('POST', `/api/schemes/${scheme.body.id}/channels`, { token: owner, form: { name: 'Android', device_type: 'android' } }),
      ...([
        [ids.appDeveloper, 'developer'],
        [ids.appMember, 'member'],
        [ids.spare, 'member'],
      ] as const).map(([user, role]) => api('POST', `/api/apps/${app.body.id}/collaborators/${user}`, { token: owner, form: { role } })),
    ]);
    expect([channel!.status, ...added.map((r) => r.status)]).toEqual([201, 201, 201, 201]);
    return { appId: app.body.id, schemeId: scheme.body.id, channelId: channel!.body.id, spareId: ids.spare, extraId: ids.extra };
  }

  /**
   * Everything a route could change, read by the global admin: the fixture
   * app (with its schemes, channels and collaborators) and, for create app,
   * whether an app named after the cell exists.
   */
  async function snapshot(f: Fixture, marker: string, route: Route): Promise<string> {
    const [app, newest] = await Promise.all([
      api('GET', `/api/apps/${f.appId}`, { token: hangar.adminToken }),
      route.needs === 'create-app' ? api('GET', '/api/apps?per_page=100', { token: hangar.adminToken }) : undefined,
    ]);
    const marked = newest?.body.filter((a: { name: string }) => a.name === marker).length;
    return JSON.stringify({ status: app.status, app: app.body, marked });
  }

  interface Cell {
    actor: ActorName;
    status: number;
    changed: boolean;
    errorBody: string;
  }

  let cellSeq = 0;
  async function runCell(route: Route, actor: ActorName, f: Fixture): Promise<Cell> {
    const marker = `matrix-cell-${++cellSeq}-${Date.now()}`;
    const before = await snapshot(f, marker, route);
    const res: ApiResponse = await api(route.method, route.path(f), { ...(actor === 'noToken' ? {} : { token: tokens[actor] }), ...(route.form ? { form: route.form(f, marker) } : {}) });
    const after = await snapshot(f, marker, route);
    return { actor, status: res.status, changed: before !== after, errorBody: res.status >= 400 ? typeof res.body?.error : 'n/a' };
  }

  it.each(ROUTES.map((r) => [r.name, r] as const))('when each caller sends %s, then each gets its status and only allowed calls change anything', async (_name, route) => {
    const expected: Cell[] = ACTORS.map((actor) => {
      const status = expectedStatus(route, actor);
      return { actor, status, changed: route.method !== 'GET' && status < 300, errorBody: status >= 400 ? 'string' : 'n/a' };
    });
    // A call expected to change the app gets a fresh app of its own; calls
    // expected to change nothing share one, one after another, each checked
    // against the state just before it.
    const changing = expected.filter((c) => c.changed).map((c) => c.actor);
    const shared = await fixture();
    const [own, rest] = await Promise.all([
      Promise.all(changing.map(async (actor) => runCell(route, actor, await fixture()))),
      (async () => {
        const cells: Cell[] = [];
        for (const actor of ACTORS.filter((a) => !changing.includes(a))) cells.push(await runCell(route, actor, shared));
        return cells;
      })(),
    ]);
    const cells = ACTORS.map((actor) => [...own, ...rest].find((c) => c.actor === actor));
    expect(cells).toEqual(expected);
  });

  it('when apps are listed, then each caller sees exactly the apps they may read', async () => {
    const f = await fixture();
    const visible = await Promise.all(
      (Object.keys(CALLERS) as (keyof typeof CALLERS)[]).map(async (actor) => {
        const res = await api('GET', '/api/apps?per_page=100', { token: tokens[actor] });
        return [actor, res.body.some((a: { id: number }) => a.id === f.appId)];
      }),
    );
    expect(Object.fromEntries(visible)).toEqual({
      globalAdmin: true,
      appAdmin: true,
      appDeveloper: true,
      appMember: true,
      developerOutsider: false,
      memberOutsider: false,
    });
  });

  it('when a route addresses an app, scheme or channel that does not exist, then 404 for anyone, before any permission answer', async () => {
    const missing: Fixture = { appId: 987_654_321, schemeId: 987_654_321, channelId: 987_654_321, spareId: ids.spare, extraId: ids.extra };
    for (const route of ROUTES.filter((r) => r.needs !== 'create-app' && r.needs !== 'list-apps')) {
      for (const actor of ['globalAdmin', 'memberOutsider'] as const) {
        const res = await api(route.method, route.path(missing), { token: tokens[actor], ...(route.form ? { form: route.form(missing, "missing") } : {}) });
        expect({ route: route.name, actor, status: res.status }).toEqual({ route: route.name, actor, status: 404 });
      }
    }
  });
});
