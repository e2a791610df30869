import type { Generations } from '@hangar/cache';
import { GENERATION_KEYS } from '@hangar/cache';
import type { apps } from '@hangar/proto';
import { CachedAppPages } from './cached-app-pages';

/** Generations in memory: what the cache decides, apart from NATS (libs/cache/test covers that). */
function memoryGenerations(): Generations {
  const values = new Map<string, number>();
  return {
    async read(keys) {
      return keys.map((k) => values.get(k) ?? 0);
    },
    async bump(keys) {
      for (const k of keys) values.set(k, (values.get(k) ?? 0) + 1);
    },
  };
}

/** An apps service answering from a list it is given: every caller sees every app it names. */
function appsService(visible: (actor: apps.ListAppsRequest['actor']) => apps.App[]) {
  const asked: apps.ListAppsRequest[] = [];
  const client = {
    async listApps(request: apps.ListAppsRequest): Promise<apps.AppList> {
      asked.push(request);
      const list = visible(request.actor);
      return { apps: list, total: list.length };
    },
  };
  return { client, asked };
}

const app = (id: number, name: string): apps.App => ({ id, name, schemes: [], collaborators: [] }) as unknown as apps.App;
const admin = { userId: 1, role: 'admin' };
const page = { page: 1, perPage: 100 };

describe('CachedAppPages', () => {
  it('when nothing in the apps service changed, then a page is asked of it once and sent as the same JSON', async () => {
    const { client, asked } = appsService(() => [app(1, 'One'), app(2, 'Two')]);
    const pages = new CachedAppPages(client as never, memoryGenerations(), { capacity: 100, maxAgeMs: 60_000 });
    const first = await pages.page(admin, page);
    const second = await pages.page(admin, page);
    expect(JSON.parse(first.json)).toEqual([
      { id: 1, name: 'One', schemes: [] },
      { id: 2, name: 'Two', schemes: [] },
    ]);
    expect(second).toEqual(first);
    expect(first.total).toBe(2);
    expect(asked).toHaveLength(1);
  });

  it('when the apps generation moves, then the next page is asked again', async () => {
    let name = 'Before';
    const { client, asked } = appsService(() => [app(1, name)]);
    const generations = memoryGenerations();
    const pages = new CachedAppPages(client as never, generations, { capacity: 100, maxAgeMs: 60_000 });
    await pages.page(admin, page);
    name = 'After';
    await generations.bump([GENERATION_KEYS.apps]);
    expect(JSON.parse((await pages.page(admin, page)).json)[0].name).toBe('After');
    expect(asked).toHaveLength(2);
  });

  it('when the same user asks with a token limited to some apps, then it gets its own page, not the unlimited one', async () => {
    const all = [app(1, 'One'), app(2, 'Two')];
    const { client, asked } = appsService((actor) => all.filter((a) => !actor?.appLimit || actor.appLimit.appIds.includes(a.id)));
    const pages = new CachedAppPages(client as never, memoryGenerations(), { capacity: 100, maxAgeMs: 60_000 });
    expect((await pages.page(admin, page)).total).toBe(2);
    expect((await pages.page({ ...admin, appLimit: { appIds: [2] } }, page)).total).toBe(1);
    expect((await pages.page({ ...admin, role: 'member' }, page)).total).toBe(2);
    expect((await pages.page(admin, { page: 2, perPage: 100 })).total).toBe(2);
    expect(asked).toHaveLength(4);
  });
});
