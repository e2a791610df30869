import { useState } from 'preact/hooks';
import { api, must, mustPage } from '../api/client';
import type { Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { Link, navigate } from '../router';
import { useSession } from '../session';
import { Field, formValues } from '../ui/field';
import { PlatformBadge } from '../ui/platform';
import { Empty, ErrorNote, Show } from '../ui/states';
import { Time } from '../ui/time';
import { useAction } from '../ui/use-action';
import { useVisible } from '../ui/use-visible';
import { FirstBuild } from './first-build';

type App = Schemas['App'];
type Channel = Schemas['Channel'];

/** Every app the user may see; the newest build of each channel; a filter; create for those who may. */
export function AppsPage() {
  const { user } = useSession();
  const [filter, setFilter] = useState('');
  const apps = useApi(() => allApps(), []);
  const mayCreate = user.role === 'admin' || user.role === 'developer';
  return (
    <>
      <div class="heading">
        <h1>Apps</h1>
        {mayCreate && <CreateApp />}
      </div>
      <div class="field filter">
        <label for="app-filter">Filter apps</label>
        <input id="app-filter" type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} placeholder="Name or channel" />
      </div>
      <Show state={apps} what="apps">
        {(list) => {
          const needle = filter.trim().toLowerCase();
          const shown = needle ? list.filter((a) => a.name.toLowerCase().includes(needle) || channelsOf(a).some((c) => c.name.toLowerCase().includes(needle))) : list;
          if (list.length === 0) return mayCreate ? <FirstBuild heading="No apps yet: upload your first build" /> : <Empty>No apps yet. Ask an admin to add you to an app.</Empty>;
          if (shown.length === 0) return <Empty>No app matches “{filter}”.</Empty>;
          return (
            <ul class="cards" aria-label="Apps">
              {shown.map((app) => (
                <AppCard key={app.id} app={app} />
              ))}
            </ul>
          );
        }}
      </Show>
    </>
  );
}

/** Every page of apps (at most 100 each). */
export async function allApps(): Promise<App[]> {
  const apps: App[] = [];
  for (let page = 1; ; page += 1) {
    const { items, total } = await mustPage(api.GET('/api/apps', { params: { query: { page: String(page), per_page: '100' } } }));
    apps.push(...items);
    if (apps.length >= total || items.length === 0) return apps;
  }
}

const channelsOf = (app: App): (Channel & { scheme: string })[] => app.schemes.flatMap((s) => s.channels.map((c) => ({ ...c, scheme: s.name })));

function AppCard({ app }: { app: App }) {
  const { ref, visible } = useVisible<HTMLLIElement>();
  const channels = channelsOf(app);
  return (
    <li class="card" ref={ref}>
      <h2>
        <Link href={`/apps/${app.id}`}>{app.name}</Link>
      </h2>
      {channels.length === 0 ? (
        <p class="muted">No channels yet.</p>
      ) : (
        <ul class="plain">
          {channels.map((channel) => (
            <li key={channel.id}>{visible ? <NewestBuild channel={channel} /> : <span class="muted">{channel.scheme} · {channel.name}</span>}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

function NewestBuild({ channel }: { channel: Channel & { scheme: string } }) {
  const newest = useApi(() => must(api.GET('/api/apps/versions', { params: { query: { channel_key: channel.slug, per_page: '1' } } })), [channel.slug]);
  const release = newest.data?.releases[0];
  return (
    <div class="newest">
      {release ? <img src={release.icon_url} alt="" width={32} height={32} loading="lazy" /> : <span class="icon-placeholder" aria-hidden="true" />}
      <span class="newest-text">
        <span class="muted">
          {channel.scheme} · {channel.name}
        </span>
        <span>
          {newest.error ? (
            <span class="problem">{newest.error.message}</span>
          ) : release ? (
            <>
              <Link href={`/builds/${release.id}`}>
                {release.release_version} ({release.build_version})
              </Link>{' '}
              <PlatformBadge platform={release.platform} /> <span class="muted small"><Time iso={release.created_at} /></span>
            </>
          ) : newest.loading ? (
            '…'
          ) : (
            <span class="muted">no builds yet</span>
          )}
        </span>
      </span>
    </div>
  );
}

function CreateApp() {
  const create = useAction((name: string) => must(api.POST('/api/apps', { body: { name } })));
  return (
    <form
      class="inline"
      onSubmit={async (event) => {
        const app = await create.act(formValues(event).name ?? '');
        if (app) navigate(`/apps/${app.id}`);
      }}
    >
      <Field label="New app name" name="name" required />
      <button type="submit" class="primary" disabled={create.busy}>
        Create app
      </button>
      {create.error && <ErrorNote error={create.error} />}
    </form>
  );
}
