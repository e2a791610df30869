import { useState } from 'preact/hooks';
import { api, must, mustPage } from '../api/client';
import type { Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { Link, navigate, useLocation } from '../router';
import { atLeast, roleOn, useSession } from '../session';
import { Empty, Show } from '../ui/states';

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
                {atLeast(role, 'developer') && <Link href={`/upload?app=${a.id}`}>Upload a build</Link>}
                {atLeast(role, 'developer') && <Link href={`/apps/${a.id}/settings`}>Settings</Link>}
              </div>
            </div>
            {channels.length === 0 ? (
              <Empty>This app has no channels yet.{atLeast(role, 'developer') ? ' Add a scheme and a channel in Settings.' : ''}</Empty>
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
                {chosen && <ChannelBuilds key={chosen.slug} channelKey={chosen.slug} appId={a.id} />}
              </>
            )}
          </>
        );
      }}
    </Show>
  );
}

/** A channel's builds, newest first, a page at a time; the filter narrows the page shown. */
function ChannelBuilds({ channelKey, appId }: { channelKey: string; appId: number }) {
  const url = useLocation();
  const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
  const [filter, setFilter] = useState('');
  const builds = useApi(() => mustPage(api.GET('/api/apps/versions', { params: { query: { channel_key: channelKey, page: String(page), per_page: String(PER_PAGE) } } })), [channelKey, page]);
  const goTo = (p: number) => navigate(`/apps/${appId}?channel=${encodeURIComponent(channelKey)}&page=${p}`);
  return (
    <section aria-labelledby="builds-heading">
      <h2 id="builds-heading">Builds</h2>
      <div class="field filter">
        <label for="build-filter">Filter by version, branch or commit</label>
        <input id="build-filter" type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      </div>
      <Show state={builds} what="builds">
        {({ items, total }) => {
          const needle = filter.trim().toLowerCase();
          const shown = items.releases.filter((r) => !needle || [r.release_version, r.build_version, r.branch, r.git_commit].some((v) => v.toLowerCase().includes(needle)));
          const pages = Math.max(1, Math.ceil(total / PER_PAGE));
          return (
            <>
              {total === 0 ? (
                <Empty>No builds in this channel yet.</Empty>
              ) : shown.length === 0 ? (
                <Empty>No build on this page matches “{filter}”.</Empty>
              ) : (
                <div class="table-wrap">
                  <table>
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
                          <td>
                            <Link href={`/builds/${r.id}`}>
                              {r.release_version} ({r.build_version})
                            </Link>
                          </td>
                          <td>{r.branch || '—'}</td>
                          <td class="mono">{r.git_commit ? r.git_commit.slice(0, 8) : '—'}</td>
                          <td>{new Date(r.created_at).toLocaleString()}</td>
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
