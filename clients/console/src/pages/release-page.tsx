import { api, must } from '../api/client';
import type { Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { Link, navigate } from '../router';
import { atLeast, roleOn, useSession } from '../session';
import { Field, formValues } from '../ui/field';
import { commitUrl, formatBytes } from '../ui/format';
import { PlatformBadge } from '../ui/platform';
import { ErrorNote, Show } from '../ui/states';
import { Time } from '../ui/time';
import { useAction } from '../ui/use-action';

type Release = Schemas['Release'];

const channelPath = (r: Release) => (r.app ? `/apps/${r.app.id}${r.channel ? `?channel=${encodeURIComponent(r.channel.slug)}` : ''}` : '/apps');

/** A build: every field the API has, its QR code, install and download; edit and delete for developers. */
export function ReleasePage({ id }: { id: number }) {
  const { user } = useSession();
  const release = useApi(async () => {
    const r = await must(api.GET('/api/releases/{id}', { params: { path: { id: String(id) } } }));
    const app = r.app ? await must(api.GET('/api/apps/{id}', { params: { path: { id: String(r.app.id) } } })) : undefined;
    return { r, role: app ? roleOn(user, app) : undefined };
  }, [id]);
  return (
    <Show state={release} what="the build">
      {({ r, role }) => (
        <>
          {r.app && r.channel && (
            <p class="crumbs">
              <Link href={channelPath(r)}>
                {r.app.name} · {r.scheme?.name} · {r.channel.name}
              </Link>
            </p>
          )}
          <div class="heading start">
            <img src={r.icon_url} alt="" width={56} height={56} class="icon" />
            <h1>
              {r.app_name} {r.release_version} ({r.build_version})
            </h1>
            <PlatformBadge platform={r.platform} />
          </div>
          <p class="muted subtitle">
            Uploaded <Time iso={r.created_at} />
            {r.branch ? ` from ${r.branch}` : ''} · {formatBytes(r.size)} · {r.download_count} download{r.download_count === 1 ? '' : 's'}
          </p>
          <SigningWarnings r={r} />
          <div class="release">
            <section aria-labelledby="install-heading" class="install">
              <h2 id="install-heading">Install</h2>
              <img src={`${r.qrcode_url}${r.qrcode_url.includes('?') ? '&' : '?'}size=200`} width={200} height={200} alt={`QR code of the install page of ${r.app_name} ${r.release_version}`} />
              <p>
                <a class="button primary" href={r.install_url}>
                  Install
                </a>{' '}
                <a class="button" href={`/api/releases/${r.id}/download`}>
                  Download
                </a>{' '}
                <a href={r.release_url}>Install page</a>
              </p>
            </section>
            <div>
              <section aria-labelledby="changelog-heading">
                <h2 id="changelog-heading">What&apos;s new</h2>
                {r.changelog.length === 0 ? <p class="muted">No release notes.</p> : <ul class="changelog">{r.changelog.map((c, i) => <li key={i}>{c.message}</li>)}</ul>}
              </section>
              <Details r={r} />
            </div>
          </div>
          {atLeast(role, 'developer') && <EditRelease release={r} onSaved={release.reload} />}
        </>
      )}
    </Show>
  );
}

function Details({ r }: { r: Release }) {
  const link = commitUrl(r.channel?.git_url, r.git_commit);
  const rows: [string, preact.ComponentChildren][] = [
    ['Version', `${r.release_version} (${r.build_version})`],
    ['Number in channel', r.version],
    ['Platform', `${r.platform} · ${r.device_type}`],
    ['Minimum OS', r.min_os_version || '—'],
    ['Bundle id', <span class="mono">{r.bundle_id}</span>],
    ['Size', formatBytes(r.size)],
    ['Release type', r.release_type || '—'],
    ['Source', r.source],
    ['Branch', r.branch || '—'],
    ['Commit', r.git_commit ? link ? <a href={link} class="mono">{r.git_commit}</a> : <span class="mono">{r.git_commit}</span> : '—'],
    ['CI', r.ci_url ? <a href={r.ci_url}>{r.ci_url}</a> : '—'],
    ['Uploaded', <Time iso={r.created_at} />],
    ['Downloads', r.download_count],
    ['Mandatory update', r.mandatory ? 'Yes' : 'No'],
    ['SHA-256', r.sha256 ? <span class="mono wrap">{r.sha256}</span> : '—'],
  ];
  return (
    <section aria-labelledby="details-heading">
      <h2 id="details-heading">Details</h2>
      <dl class="fields">
        {rows.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        {r.custom_fields.map((f) => (
          <div key={`custom-${f.name}`}>
            <dt>{f.name}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      <h3>Debug files of this build</h3>
      {!r.debug_files ? (
        <p class="muted">The debug files could not be listed just now.</p>
      ) : r.debug_files.length === 0 ? (
        <p class="muted">None uploaded for this version and build.</p>
      ) : (
        <ul>
          {r.debug_files.map((d) => (
            <li key={d.id}>
              {d.file_url ? <a href={d.file_url}>{d.file_name}</a> : d.file_name} <span class="muted">({d.kind}, {formatBytes(d.size)})</span>
            </li>
          ))}
        </ul>
      )}
      {r.signing && <Signing signing={r.signing} />}
    </section>
  );
}

type Signing = NonNullable<Release['signing']>;
const PROFILE_TYPES: Record<string, string> = { development: 'Development', ad_hoc: 'Ad hoc', enterprise: 'Enterprise (in-house)', app_store: 'App Store' };
const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : 'unknown');

/** A profile lists a team's certificates, often the same one more than once: each once, by its SHA-256. */
export function distinctCertificates(signing: Signing): Signing['certificates'] {
  const seen = new Set<string>();
  return signing.certificates.filter((c) => {
    const key = c.sha256 || c.subject;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What the install page warns of, warned of here too: a build that devices will refuse. */
function SigningWarnings({ r }: { r: Release }) {
  if (!r.signing) return null;
  const problems: string[] = [];
  const profile = r.signing.profile;
  if (profile?.expired) problems.push(`The provisioning profile expired on ${day(profile.expires_at)}: devices will refuse to install or open this build. Upload a build signed with a current profile.`);
  const certificates = distinctCertificates(r.signing);
  const expired = certificates.filter((c) => c.expired);
  // The build is signed by one of the profile's certificates: only when all have expired is its signature certainly stale.
  if (expired.length > 0 && expired.length === certificates.length) {
    const last = expired.map((c) => day(c.expires_at)).sort().pop();
    problems.push(expired.length === 1 ? `The signing certificate expired on ${last}.` : `All ${expired.length} signing certificates of the profile have expired, the last on ${last}.`);
  }
  if (problems.length === 0) return null;
  return (
    <section class="warning" role="alert" aria-labelledby="signing-warning">
      <h2 id="signing-warning">This build may not install</h2>
      {problems.map((p) => (
        <p key={p}>{p}</p>
      ))}
    </section>
  );
}

function Signing({ signing }: { signing: Signing }) {
  const certificates = distinctCertificates(signing);
  const profile = signing.profile;
  return (
    <>
      <h3>Signing</h3>
      <ul class="signing">
        {profile && (
          <li>
            Profile: {PROFILE_TYPES[profile.type] ?? profile.type}
            {profile.name ? ` · ${profile.name}` : ''} · {profile.expired ? <strong class="problem">expired {day(profile.expires_at)}</strong> : `expires ${day(profile.expires_at)}`}
          </li>
        )}
        {signing.schemes.length > 0 && <li>Schemes: {signing.schemes.join(', ')}</li>}
      </ul>
      <details class="certificates" open={certificates.length <= 3}>
        <summary>
          {certificates.length} certificate{certificates.length === 1 ? '' : 's'}
          {signing.certificates_truncated ? ' (the first listed)' : ''}
        </summary>
        <ul>
          {certificates.map((c) => (
            <li key={c.sha256 || c.subject}>
              {c.common_name ?? c.subject} <span class="muted">· {c.expired ? 'expired' : 'expires'} {day(c.expires_at)}</span>
              <br />
              <span class="mono small muted wrap">{c.sha256}</span>
            </li>
          ))}
        </ul>
      </details>
    </>
  );
}

function EditRelease({ release, onSaved }: { release: Release; onSaved: () => void }) {
  const save = useAction((body: Record<string, string>) => must(api.PUT('/api/releases/{id}', { params: { path: { id: String(release.id) } }, body: { ...body, mandatory: body.mandatory === 'on' ? 'true' : 'false' } })));
  const remove = useAction(() => must(api.DELETE('/api/releases/{id}', { params: { path: { id: String(release.id) } } })));
  const entry = (save.error as { entry?: Record<string, string[]> } | undefined)?.entry;
  return (
    <section aria-labelledby="edit-heading" class="panel">
      <h2 id="edit-heading">Edit this build</h2>
      <form
        onSubmit={async (event) => {
          if (await save.act(formValues(event))) onSaved();
        }}
      >
        <div class="grid">
          <Field label="Release version" name="release_version" defaultValue={release.release_version} problems={entry?.release_version} />
          <Field label="Build version" name="build_version" defaultValue={release.build_version} problems={entry?.build_version} />
          <Field label="Branch" name="branch" defaultValue={release.branch} problems={entry?.branch} />
          <Field label="Commit" name="git_commit" defaultValue={release.git_commit} problems={entry?.git_commit} />
          <Field label="CI URL" name="ci_url" defaultValue={release.ci_url} problems={entry?.ci_url} />
          <Field label="Release type" name="release_type" defaultValue={release.release_type} problems={entry?.release_type} />
        </div>
        <div class="field">
          <label for="changelog">Changelog</label>
          <textarea id="changelog" name="changelog" rows={4} defaultValue={release.text_changelog} />
        </div>
        <div class="check">
          <input id="mandatory" type="checkbox" name="mandatory" defaultChecked={release.mandatory} />
          <label for="mandatory">Mandatory: older installs must update to this build</label>
        </div>
        {save.error && <ErrorNote error={save.error} />}
        {save.result && !save.busy && <p role="status">Saved.</p>}
        <button type="submit" class="primary" disabled={save.busy}>
          Save changes
        </button>
      </form>
      <h3>Delete</h3>
      <p class="muted">Deleting removes the package and its install page for everyone.</p>
      {remove.error && <ErrorNote error={remove.error} />}
      <button
        type="button"
        class="danger"
        disabled={remove.busy}
        onClick={async () => {
          if (!confirm(`Delete ${release.release_version} (${release.build_version})? This cannot be undone.`)) return;
          if (await remove.act()) navigate(channelPath(release));
        }}
      >
        Delete this build
      </button>
    </section>
  );
}
