import { api, must } from '../api/client';
import { useApi } from '../api/use-api';
import { useSession } from '../session';
import { Field, formValues } from '../ui/field';
import { formatTime } from '../ui/format';
import { ErrorNote, Show } from '../ui/states';
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

function Tokens() {
  const list = useApi(() => must(api.GET('/api/users/{id}/tokens', { params: { path: { id: 'me' } } })), []);
  const create = useAction((name: string) => must(api.POST('/api/users/{id}/tokens', { params: { path: { id: 'me' } }, body: { name } })));
  const revoke = useAction((tokenId: number) => must(api.DELETE('/api/users/{id}/tokens/{token_id}', { params: { path: { id: 'me', token_id: String(tokenId) } } })));
  return (
    <section class="panel" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">Personal access tokens</h2>
      <p class="muted">For CI and the hangar command. A token acts as you: keep it secret.</p>
      <Show state={list} what="tokens">
        {(tokens) =>
          tokens.length === 0 ? (
            <p class="muted">No tokens yet.</p>
          ) : (
            <ul class="plain rows">
              {tokens.map((t) => (
                <li key={t.id}>
                  <span>
                    <strong>{t.name}</strong> <span class="mono">{t.hint}</span> <span class="muted">created {formatTime(t.created_at)}, {t.last_used_at ? `last used ${formatTime(t.last_used_at)}` : 'never used'}</span>
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
        class="inline"
        onSubmit={async (e) => {
          const form = e.currentTarget as HTMLFormElement;
          if (await create.act(formValues(e).name ?? '')) {
            form.reset();
            list.reload();
          }
        }}
      >
        <Field label="New token name" name="name" required placeholder="CI" />
        <button type="submit" disabled={create.busy}>
          Create token
        </button>
      </form>
      {create.error && <ErrorNote error={create.error} />}
      {create.result && (
        <div class="secret" role="status">
          <p>Your new token {create.result.name} — copy it now, it is not shown again:</p>
          <code class="wrap">{create.result.token}</code>
        </div>
      )}
    </section>
  );
}

function Sessions() {
  const list = useApi(() => must(api.GET('/api/sessions')), []);
  const revoke = useAction((id: number) => must(api.DELETE('/api/sessions/{id}', { params: { path: { id: String(id) } } })));
  return (
    <section class="panel" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Where you are signed in</h2>
      <Show state={list} what="sessions">
        {(sessions) => (
          <ul class="plain rows">
            {sessions.map((s) => (
              <li key={s.id}>
                <span>
                  {s.current ? <strong>This browser</strong> : s.user_agent || 'Unknown browser'} <span class="muted">signed in {formatTime(s.created_at)}, last used {formatTime(s.last_used_at)}</span>
                </span>
                {!s.current && (
                  <button type="button" onClick={async () => (await revoke.act(s.id)) && list.reload()}>
                    Sign out there
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Show>
      {revoke.error && <ErrorNote error={revoke.error} />}
    </section>
  );
}
