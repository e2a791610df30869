import { api, must } from '../api/client';
import { useApi } from '../api/use-api';
import { useSession } from '../session';
import { Field, formValues } from '../ui/field';
import { CopyButton } from '../ui/copy';
import { describeUserAgent } from '../ui/format';
import { ErrorNote, Show } from '../ui/states';
import { Time } from '../ui/time';
import { allApps } from './apps-page';
import { useAction } from '../ui/use-action';

/** Everyone's own: profile, password, personal access tokens, sessions. */
export function AccountPage() {
  return (
    <>
      <h1>Your account</h1>
      <Profile />
      <Password />
      <Tokens />
      <Sessions />
    </>
  );
}

function Profile() {
  const { user, setUser } = useSession();
  const save = useAction((v: Record<string, string>) =>
    must(api.PATCH('/api/users/{id}', { params: { path: { id: 'me' } }, body: { username: v.username, locale: v.locale as 'en' | 'zh-CN', timezone: v.timezone, appearance: v.appearance as 'auto' | 'light' | 'dark' } })),
  );
  const entry = (save.error as { entry?: Record<string, string[]> } | undefined)?.entry;
  return (
    <form
      class="panel"
      aria-labelledby="profile-heading"
      onSubmit={async (e) => {
        const updated = await save.act(formValues(e));
        if (updated) setUser(updated);
      }}
    >
      <h2 id="profile-heading">Profile</h2>
      <p class="muted">
        {user.email} · {user.role}
      </p>
      <div class="grid">
        <Field label="Name" name="username" defaultValue={user.username} required problems={entry?.username} />
        <Field label="Time zone" name="timezone" defaultValue={user.timezone} problems={entry?.timezone} />
        <div class="field">
          <label for="locale">Language</label>
          <select id="locale" name="locale" defaultValue={user.locale}>
            <option value="en">English</option>
            <option value="zh-CN">简体中文</option>
          </select>
        </div>
        <div class="field">
          <label for="appearance">Appearance</label>
          <select id="appearance" name="appearance" defaultValue={user.appearance}>
            <option value="auto">As the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </div>
      </div>
      <button type="submit" class="primary" disabled={save.busy}>
        Save profile
      </button>
      {save.result && !save.error && <p role="status">Saved.</p>}
      {save.error && <ErrorNote error={save.error} />}
    </form>
  );
}

function Password() {
  const change = useAction((current: string, next: string) => must(api.PUT('/api/users/me/password', { body: { current_password: current, password: next } })));
  const entry = (change.error as { entry?: Record<string, string[]> } | undefined)?.entry;
  return (
    <form
      class="panel"
      aria-labelledby="password-heading"
      onSubmit={async (e) => {
        const form = e.currentTarget as HTMLFormElement;
        const v = formValues(e);
        if (await change.act(v.current_password ?? '', v.password ?? '')) form.reset();
      }}
    >
      <h2 id="password-heading">Password</h2>
      <div class="grid">
        <Field label="Current password" name="current_password" type="password" autoComplete="current-password" required problems={entry?.current_password} />
        <Field label="New password" name="password" type="password" autoComplete="new-password" required problems={entry?.password} />
      </div>
      <button type="submit" disabled={change.busy}>
        Change password
      </button>
      {change.result && !change.error && <p role="status">Password changed. Your other sessions were signed out.</p>}
      {change.error && <ErrorNote error={change.error} />}
    </form>
  );
}

const SCOPES = [
  ['read', 'read: reads only'],
  ['upload', 'upload: builds and debug files, and the version checks before them (CI)'],
  ['manage', 'manage: change apps, channels, builds, webhooks'],
  ['admin', 'admin: accounts and tokens'],
] as const;
const EXPIRIES = [
  ['', 'Never'],
  ['7', 'In 7 days'],
  ['30', 'In 30 days'],
  ['90', 'In 90 days'],
  ['365', 'In a year'],
] as const;

/** The token form's choices as the API takes them: comma-separated scopes and app ids, an ISO expiry. */
function tokenBody(form: HTMLFormElement) {
  const data = new FormData(form);
  const days = Number(data.get('expires_in') || 0);
  return {
    name: String(data.get('name') ?? ''),
    scopes: data.getAll('scopes').join(','),
    app_ids: data.getAll('app_ids').join(','),
    expires_at: days ? new Date(Date.now() + days * 86_400_000).toISOString() : '',
  };
}

function Tokens() {
  const list = useApi(() => must(api.GET('/api/users/{id}/tokens', { params: { path: { id: 'me' } } })), []);
  const apps = useApi(() => allApps(), []);
  const create = useAction((body: ReturnType<typeof tokenBody>) => must(api.POST('/api/users/{id}/tokens', { params: { path: { id: 'me' } }, body })));
  const revoke = useAction((tokenId: number) => must(api.DELETE('/api/users/{id}/tokens/{token_id}', { params: { path: { id: 'me', token_id: String(tokenId) } } })));
  const appName = (id: number) => apps.data?.find((a) => a.id === id)?.name ?? `app ${id}`;
  return (
    <section class="panel" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">Personal access tokens</h2>
      <p class="muted">For CI and the hangar command. A token acts as you within its limits: keep it secret. For CI, limit one to <em>upload</em> on its app.</p>
      <Show state={list} what="tokens">
        {(tokens) =>
          tokens.length === 0 ? (
            <p class="muted">No tokens yet.</p>
          ) : (
            <ul class="plain rows">
              {tokens.map((t) => (
                <li key={t.id}>
                  <span>
                    <strong>{t.name}</strong> <span class="mono">{t.hint}</span>
                    <br />
                    <span class="muted small">
                      {t.scopes && t.scopes.length > 0 ? t.scopes.join(', ') : 'every right of yours'} · {t.app_ids && t.app_ids.length > 0 ? t.app_ids.map(appName).join(', ') : 'all your apps'} ·{' '}
                      {t.expires_at ? <Time iso={t.expires_at} prefix="expires " /> : 'never expires'} · <Time iso={t.created_at} prefix="created " /> ·{' '}
                      {t.last_used_at ? <Time iso={t.last_used_at} prefix="last used " /> : 'never used'}
                    </span>
                  </span>
                  <button type="button" class="danger" onClick={async () => confirm(`Revoke ${t.name}? Whatever uses it stops working at once.`) && (await revoke.act(t.id)) && list.reload()}>
                    Revoke {t.name}
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Show>
      {revoke.error && <ErrorNote error={revoke.error} />}
      <form
        class="token-form"
        aria-labelledby="new-token-heading"
        onSubmit={async (e) => {
          e.preventDefault();
          const form = e.currentTarget as HTMLFormElement;
          if (await create.act(tokenBody(form))) {
            form.reset();
            list.reload();
          }
        }}
      >
        <h3 id="new-token-heading">New token</h3>
        <Field label="New token name" name="name" required placeholder="CI" />
        <fieldset>
          <legend>What it may do</legend>
          <p class="muted small" id="scopes-hint">
            None ticked: everything you may do.
          </p>
          {SCOPES.map(([scope, label]) => (
            <div class="check" key={scope}>
              <input id={`scope-${scope}`} type="checkbox" name="scopes" value={scope} aria-describedby="scopes-hint" />
              <label for={`scope-${scope}`}>{label}</label>
            </div>
          ))}
        </fieldset>
        <fieldset>
          <legend>Which apps</legend>
          <p class="muted small" id="apps-hint">
            None ticked: all your apps.
          </p>
          <Show state={apps} what="your apps">
            {(list) => (
              <div class="choices">
                {list.map((a) => (
                  <div class="check" key={a.id}>
                    <input id={`token-app-${a.id}`} type="checkbox" name="app_ids" value={String(a.id)} aria-describedby="apps-hint" />
                    <label for={`token-app-${a.id}`}>{a.name}</label>
                  </div>
                ))}
              </div>
            )}
          </Show>
        </fieldset>
        <div class="field">
          <label for="token-expiry">Expires</label>
          <select id="token-expiry" name="expires_in" defaultValue="">
            {EXPIRIES.map(([days, label]) => (
              <option key={days} value={days}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" class="primary" disabled={create.busy}>
          Create token
        </button>
      </form>
      {create.error && <ErrorNote error={create.error} />}
      {create.result && (
        <div class="secret" role="status">
          <p>Your new token {create.result.name} — copy it now, it is not shown again:</p>
          <code class="wrap">{create.result.token}</code> <CopyButton text={create.result.token} label="Copy token" />
        </div>
      )}
    </section>
  );
}

function Sessions() {
  const list = useApi(() => must(api.GET('/api/sessions')), []);
  const revoke = useAction((id: number) => must(api.DELETE('/api/sessions/{id}', { params: { path: { id: String(id) } } })));
  const revokeOthers = useAction(() => must(api.DELETE('/api/sessions/others', {})));
  return (
    <section class="panel" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Where you are signed in</h2>
      <Show state={list} what="sessions">
        {(sessions) => (
          <>
            <ul class="plain rows">
              {[...sessions]
                .sort((a, b) => Number(b.current) - Number(a.current) || b.last_used_at.localeCompare(a.last_used_at))
                .map((s) => (
                  <li key={s.id}>
                    <span>
                      <strong>{describeUserAgent(s.user_agent)}</strong>
                      {s.current && <span class="badge this-device">this device</span>}
                      <br />
                      <span class="muted small" title={s.user_agent}>
                        {s.address ? `${s.address} · ` : ''}
                        <Time iso={s.created_at} prefix="signed in " /> · <Time iso={s.last_used_at} prefix="last used " />
                      </span>
                    </span>
                    {!s.current && (
                      <button type="button" onClick={async () => (await revoke.act(s.id)) && list.reload()}>
                        Sign out there
                      </button>
                    )}
                  </li>
                ))}
            </ul>
            {sessions.some((s) => !s.current) && (
              <p>
                <button type="button" disabled={revokeOthers.busy} onClick={async () => (await revokeOthers.act()) && list.reload()}>
                  Sign out everywhere else
                </button>
              </p>
            )}
            {revokeOthers.result && !revokeOthers.busy && (
              <p role="status">
                Signed out of {revokeOthers.result.ended} other session{revokeOthers.result.ended === 1 ? '' : 's'}.
              </p>
            )}
          </>
        )}
      </Show>
      {revoke.error && <ErrorNote error={revoke.error} />}
      {revokeOthers.error && <ErrorNote error={revokeOthers.error} />}
    </section>
  );
}
