import { useState } from 'preact/hooks';
import { api, must, mustPage } from '../api/client';
import type { Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { useDebounced } from '../ui/use-debounced';
import { Link, navigate, useLocation } from '../router';
import { atLeast, roleOn, useSession } from '../session';
import { PlatformBadge } from '../ui/platform';
import { Empty, Show } from '../ui/states';
import { Time } from '../ui/time';
import { FirstBuild } from './first-build';

const PER_PAGE = 20;

/** An app: its schemes and channels, and the chosen channel's builds. */
export function AppPage({ appId }: { appId: number }) {
  const { user } = useSession();
  const app = useApi(() => must(api.GET('/api/apps/{id}', { params: { path: { id: String(appId) } } })), [appId]);
  const url = useLocation();
  return (
    <Show state={app} what="the app">
      {(a) => {
        const role = roleOn(user, a);
        const channels = a.schemes.flatMap((s) => s.channels.map((c) => ({ ...c, scheme: s.name })));
        const chosen = channels.find((c) => c.slug === url.searchParams.get('channel')) ?? channels[0];
        return (
          <>
            <div class="heading">
              <h1>{a.name}</h1>
              <div class="actions">
                <Link href={`/apps/${a.id}/debug-files`}>Debug files</Link>
                {atLeast(role, 'developer') && <Link href={`/upload?app=${a.id}${chosen ? `&channel=${encodeURIComponent(chosen.slug)}` : ''}`}>Upload a build</Link>}
                {atLeast(role, 'developer') && <Link href={`/apps/${a.id}/settings`}>Settings</Link>}
              </div>
            </div>
            {channels.length === 0 ? (
              atLeast(role, 'developer') ? (
                <FirstBuild appName={a.name} heading="No channels yet: upload the first build" />
              ) : (
                <Empty>This app has no channels yet.</Empty>
              )
            ) : (
              <>
                <nav aria-label="Channels" class="tabs">
                  {a.schemes.map((scheme) => (
                    <div key={scheme.id} class="tab-group">
                      <span class="muted">{scheme.name}</span>
                      {scheme.channels.map((c) => (
                        <Link key={c.id} href={`/apps/${a.id}?channel=${encodeURIComponent(c.slug)}`} aria-current={c.slug === chosen?.slug ? 'page' : undefined}>
                          {c.name} <span class="muted">({c.device_type})</span>
                        </Link>
                      ))}
                    </div>
                  ))}
                </nav>
                {chosen && <ChannelBuilds key={chosen.slug} channelKey={chosen.slug} appId={a.id} mayUpload={atLeast(role, 'developer')} />}
              </>
            )}
          </>
        );
      }}
    </Show>
  );
}

/** The builds filter's fields, named as the API's query parameters; kept in the URL so a reload keeps them. */
const FILTER_FIELDS = [
  { param: 'release_version', label: 'Version' },
  { param: 'branch', label: 'Branch' },
  { param: 'git_commit', label: 'Commit' },
] as const;
type FilterParam = (typeof FILTER_FIELDS)[number]['param'];

/** A channel's builds, newest first, a page at a time, narrowed by the server (every page, not just the one shown). */
function ChannelBuilds({ channelKey, appId, mayUpload }: { channelKey: string; appId: number; mayUpload: boolean }) {
  const url = useLocation();
  const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
  const [filter, setFilter] = useState<Record<FilterParam, string>>(() => ({
    release_version: url.searchParams.get('release_version') ?? '',
    branch: url.searchParams.get('branch') ?? '',
    git_commit: url.searchParams.get('git_commit') ?? '',
  }));
  const asked = useDebounced(filter, 250);
  const filtering = Object.values(asked).some((v) => v.trim() !== '');
  const builds = useApi(
    () => mustPage(api.GET('/api/apps/versions', { params: { query: { channel_key: channelKey, page: String(page), per_page: String(PER_PAGE), ...asked } } })),
    [channelKey, page, asked.release_version, asked.branch, asked.git_commit],
  );
  const urlOf = (p: number, f: Record<FilterParam, string>) => {
    const query = new URLSearchParams({ channel: channelKey, page: String(p) });
    for (const { param } of FILTER_FIELDS) if (f[param].trim()) query.set(param, f[param].trim());
    return `/apps/${appId}?${query}`;
  };
  const goTo = (p: number) => navigate(urlOf(p, asked));
  const change = (param: FilterParam, value: string) => {
    const next = { ...filter, [param]: value };
    setFilter(next);
    // A new filter starts at its first page; replace, so Back leaves the page rather than undoing keystrokes.
    navigate(urlOf(1, next), true);
  };
  return (
    <section aria-labelledby="builds-heading">
      <h2 id="builds-heading">Builds</h2>
      <fieldset class="build-filter">
        <legend>Filter builds</legend>
        {FILTER_FIELDS.map(({ param, label }) => (
          <div class="field" key={param}>
            <label for={`build-filter-${param}`}>{label}</label>
            <input id={`build-filter-${param}`} type="search" value={filter[param]} onInput={(e) => change(param, e.currentTarget.value)} />
          </div>
        ))}
      </fieldset>
      <Show state={builds} what="builds">
        {({ items, total }) => {
          const shown = items.releases;
          const pages = Math.max(1, Math.ceil(total / PER_PAGE));
          return (
            <>
              {total === 0 && filtering ? (
                <Empty>No build in this channel matches the filter.</Empty>
              ) : total === 0 ? (
                mayUpload ? <FirstBuild channelKey={channelKey} heading="No builds in this channel yet: upload the first" /> : <Empty>No builds in this channel yet.</Empty>
              ) : (
                <div class="table-wrap">
                  <table class="stack-on-phone">
                    <caption class="visually-hidden">Builds, newest first</caption>
                    <thead>
                      <tr>
                        <th scope="col">Version</th>
                        <th scope="col">Branch</th>
                        <th scope="col">Commit</th>
                        <th scope="col">Uploaded</th>
                      </tr>
                    </thead>
                    <tbody>
                      {shown.map((r) => (
                        <tr key={r.id}>
                          <td data-label="Version">
                            <Link href={`/builds/${r.id}`}>
                              {r.release_version} ({r.build_version})
                            </Link>{' '}
                            <PlatformBadge platform={r.platform} />
                          </td>
                          <td data-label="Branch">{r.branch || '—'}</td>
                          <td data-label="Commit" class="mono">
                            {r.git_commit ? r.git_commit.slice(0, 8) : '—'}
                          </td>
                          <td data-label="Uploaded">
                            <Time iso={r.created_at} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              {pages > 1 && (
                <nav aria-label="Pages of builds" class="pager">
                  <button type="button" disabled={page <= 1} onClick={() => goTo(page - 1)}>
                    Newer
                  </button>
                  <span>
                    Page {page} of {pages}
                  </span>
                  <button type="button" disabled={page >= pages} onClick={() => goTo(page + 1)}>
                    Older
                  </button>
                </nav>
              )}
            </>
          );
        }}
      </Show>
    </section>
  );
}
