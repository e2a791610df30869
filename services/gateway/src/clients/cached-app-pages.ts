import { GENERATION_KEYS, Generations, ValidatedCache } from '@hangar/cache';
import type { apps } from '@hangar/proto';
import { presentApp } from '../presenters/app.presenter';
import type { ServiceClients } from './service-clients';

type AppsClient = Pick<ServiceClients['apps'], 'listApps'>;
type Actor = NonNullable<apps.ListAppsRequest['actor']>;
type PageRequest = NonNullable<apps.ListAppsRequest['page']>;

/** A page of `GET /api/apps` as it is sent: its JSON, and the total its headers carry. */
export interface RenderedAppPage {
  json: string;
  total: number;
}

/**
 * A page of the apps list as every caller gets it: rendered here at each call
 * when there is no cache (`APP_VIEW_CACHE_SIZE=0`).
 */
export async function renderAppPage(client: AppsClient, actor: Actor, page: PageRequest): Promise<RenderedAppPage> {
  const list = await client.listApps({ actor, page });
  return { json: JSON.stringify(list.apps.map((app) => presentApp(app, { collaborators: false }))), total: list.total };
}

/**
 * The console's first page — 100 apps with their schemes and channels — kept
 * rendered per caller and page while the apps generation is unchanged, as the
 * apps service keeps the same page (apps-service.ts): a console opening costs
 * a token check and a generation read (shared by concurrent requests), not a
 * gRPC call, 100 apps decoded from protobuf and written as JSON. Nothing else
 * decides a page: it holds no collaborators (no user names), no timestamps
 * (no time zone), and which apps a caller sees changes only through writes
 * to the apps service, which bumps the generation before it answers them.
 * The key is everything the actor carries, so a token limited to some apps
 * is never served what its user's unlimited token was.
 */
export class CachedAppPages {
  private readonly pages: ValidatedCache<RenderedAppPage>;

  constructor(
    private readonly client: AppsClient,
    generations: Generations,
    options: { capacity: number; maxAgeMs: number },
  ) {
    // Weighed like the apps service's pages: by their apps (a JSON of 100 apps is
    // about 30 KiB), against the same capacity.
    this.pages = new ValidatedCache({ generations, ...options, weigh: (page) => 1 + Math.ceil(page.json.length / 300) });
  }

  page(actor: Actor, page: PageRequest): Promise<RenderedAppPage> {
    const key = [actor.userId, actor.role, actor.appLimit?.appIds.join(',') ?? '*', page.page, page.perPage].join(':');
    return this.pages.get(key, [GENERATION_KEYS.apps], () => renderAppPage(this.client, actor, page));
  }
}
