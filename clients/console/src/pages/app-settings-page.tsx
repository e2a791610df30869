import { api, must } from '../api/client';
import type { Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { Link, navigate } from '../router';
import { AppRole, atLeast, roleOn, useSession } from '../session';
import { Field, formValues } from '../ui/field';
import { ErrorNote, Show } from '../ui/states';
import { useAction } from '../ui/use-action';
import { CollaboratorsSection } from './collaborators-section';
import { TestersSection } from './testers-section';
import { WebhooksSection } from './webhooks-section';

type App = Schemas['App'];
type Scheme = Schemas['Scheme'];
type Channel = Schemas['Channel'];

const DEVICE_TYPES = ['ios', 'android', 'macos', 'windows', 'linux'] as const;

/** Settings of an app, its schemes and channels; collaborators and webhooks for app admins. */
export function AppSettingsPage({ appId }: { appId: number }) {
  const { user } = useSession();
  const app = useApi(() => must(api.GET('/api/apps/{id}', { params: { path: { id: String(appId) } } })), [appId]);
  return (
    <Show state={app} what="the app's settings">
      {(a) => {
        const role = roleOn(user, a);
        if (!atLeast(role, 'developer')) return <ErrorNote error={new Error('Only developers and admins of this app can change its settings.')} />;
        return (
          <>
            <p class="crumbs">
              <Link href={`/apps/${a.id}`}>{a.name}</Link>
            </p>
            <h1>Settings of {a.name}</h1>
            {atLeast(role, 'admin') && <AppSection app={a} onSaved={app.reload} />}
            <section aria-labelledby="schemes-heading">
              <h2 id="schemes-heading">Schemes and channels</h2>
              {a.schemes.map((s) => (
                <SchemeSettings key={s.id} scheme={s} onChanged={app.reload} />
              ))}
              <NewScheme appId={a.id} onCreated={app.reload} />
            </section>
            {atLeast(role, 'admin') && <CollaboratorsSection appId={a.id} />}
            {atLeast(role, 'admin') && <TestersSection app={a} />}
            {atLeast(role, 'admin') && <WebhooksSection appId={a.id} />}
          </>
        );
      }}
    </Show>
  );
}

function AppSection({ app, onSaved }: { app: App; onSaved: () => void }) {
  const rename = useAction((name: string) => must(api.PUT('/api/apps/{id}', { params: { path: { id: String(app.id) } }, body: { name } })));
  const remove = useAction(() => must(api.DELETE('/api/apps/{id}', { params: { path: { id: String(app.id) } } })));
  return (
    <section aria-labelledby="app-heading" class="panel">
      <h2 id="app-heading">App</h2>
      <form class="inline" onSubmit={async (e) => (await rename.act(formValues(e).name ?? '')) && onSaved()}>
        <Field label="Name" name="name" defaultValue={app.name} required />
        <button type="submit" disabled={rename.busy}>
          Rename
        </button>
      </form>
      {rename.error && <ErrorNote error={rename.error} />}
      <button
        type="button"
        class="danger"
        onClick={async () => confirm(`Delete ${app.name} with all its builds and debug files?`) && (await remove.act()) && navigate('/apps')}
      >
        Delete app
      </button>
      {remove.error && <ErrorNote error={remove.error} />}
    </section>
  );
}

function SchemeSettings({ scheme, onChanged }: { scheme: Scheme; onChanged: () => void }) {
  const save = useAction((v: Record<string, string>) =>
    must(api.PUT('/api/schemes/{id}', { params: { path: { id: String(scheme.id) } }, body: { name: v.name, retained_builds: v.retained_builds, new_build_callout: v.new_build_callout === 'on' ? 'true' : 'false' } })),
  );
  const remove = useAction(() => must(api.DELETE('/api/schemes/{id}', { params: { path: { id: String(scheme.id) } } })));
  const id = `scheme-${scheme.id}`;
  return (
    <div class="panel">
      <h3>Scheme {scheme.name}</h3>
      <form onSubmit={async (e) => (await save.act(formValues(e))) && onChanged()}>
        <div class="grid">
          <Field label="Name" name="name" defaultValue={scheme.name} required />
          <Field label="Builds kept per channel (0 keeps all)" name="retained_builds" type="number" min={0} defaultValue={String(scheme.retained_builds)} />
        </div>
        <div class="check">
          <input id={`${id}-callout`} type="checkbox" name="new_build_callout" defaultChecked={scheme.new_build_callout} />
          <label for={`${id}-callout`}>Call the app's webhooks for each new build</label>
        </div>
        {save.error && <ErrorNote error={save.error} />}
        <button type="submit" disabled={save.busy}>
          Save scheme
        </button>{' '}
        <button type="button" class="danger" onClick={async () => confirm(`Delete scheme ${scheme.name} with its channels and builds?`) && (await remove.act()) && onChanged()}>
          Delete scheme
        </button>
        {remove.error && <ErrorNote error={remove.error} />}
      </form>
      {scheme.channels.map((c) => (
        <ChannelSettings key={c.id} channel={c} onChanged={onChanged} />
      ))}
      <NewChannel schemeId={scheme.id} onCreated={onChanged} />
    </div>
  );
}

/** 24 base62 characters from the browser's CSPRNG: as unguessable as the server's own slugs. */
function randomSlug(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const out: string[] = [];
  while (out.length < 24) {
    for (const byte of crypto.getRandomValues(new Uint8Array(32))) if (byte < 248 && out.length < 24) out.push(alphabet[byte % 62]!);
  }
  return out.join('');
}

function ChannelSettings({ channel, onChanged }: { channel: Channel; onChanged: () => void }) {
  const update = useAction((body: Record<string, string>) => must(api.PUT('/api/channels/{id}', { params: { path: { id: String(channel.id) } }, body })));
  const remove = useAction(() => must(api.DELETE('/api/channels/{id}', { params: { path: { id: String(channel.id) } } })));
  const entry = (update.error as { entry?: Record<string, string[]> } | undefined)?.entry;
  const run = async (body: Record<string, string>) => (await update.act(body)) && onChanged();
  return (
    <div class="subpanel">
      <h4>
        Channel {channel.name} <span class="muted">({channel.device_type})</span>
      </h4>
      <p>
        Channel key: <code class="wrap">{channel.slug}</code>{' '}
        <button type="button" onClick={() => confirm('Rotate the channel key? CI jobs and links using the old key stop working.') && run({ slug: randomSlug() })}>
          Rotate key
        </button>
      </p>
      <form
        onSubmit={(e) => {
          const v = formValues(e);
          void run({ name: v.name ?? '', bundle_id: v.bundle_id ?? '', git_url: v.git_url ?? '', min_supported_version: v.min_supported_version ?? '' });
        }}
      >
        <div class="grid">
          <Field label="Name" name="name" defaultValue={channel.name} required problems={entry?.name} />
          <Field label="Bundle id rule (* for any)" name="bundle_id" defaultValue={channel.bundle_id} problems={entry?.bundle_id} />
          <Field label="Git URL" name="git_url" type="url" defaultValue={channel.git_url ?? ''} problems={entry?.git_url} />
          <Field label="Minimum supported version" name="min_supported_version" defaultValue={channel.min_supported_version ?? ''} problems={entry?.min_supported_version} />
        </div>
        <button type="submit" disabled={update.busy}>
          Save channel
        </button>
      </form>
      <form
        class="inline"
        onSubmit={(e) => {
          const password = formValues(e).password ?? '';
          if (password) void run({ password });
        }}
      >
        <Field label={channel.has_password ? 'New visit password' : 'Visit password'} name="password" type="password" autoComplete="new-password" problems={entry?.password} />
        <button type="submit">{channel.has_password ? 'Change password' : 'Set password'}</button>
        {channel.has_password && (
          <button type="button" onClick={() => void run({ password: '' })}>
            Clear password
          </button>
        )}
      </form>
      {update.error && <ErrorNote error={update.error} />}
      <button type="button" class="danger" onClick={async () => confirm(`Delete channel ${channel.name} with its builds?`) && (await remove.act()) && onChanged()}>
        Delete channel
      </button>
      {remove.error && <ErrorNote error={remove.error} />}
    </div>
  );
}

function NewScheme({ appId, onCreated }: { appId: number; onCreated: () => void }) {
  const create = useAction((name: string) => must(api.POST('/api/apps/{app_id}/schemes', { params: { path: { app_id: String(appId) } }, body: { name } })));
  return (
    <form class="inline" onSubmit={async (e) => (await create.act(formValues(e).name ?? '')) && onCreated()}>
      <Field label="New scheme" name="name" placeholder="Beta" required />
      <button type="submit" disabled={create.busy}>
        Add scheme
      </button>
      {create.error && <ErrorNote error={create.error} />}
    </form>
  );
}

function NewChannel({ schemeId, onCreated }: { schemeId: number; onCreated: () => void }) {
  const create = useAction((name: string, device_type: (typeof DEVICE_TYPES)[number]) =>
    must(api.POST('/api/schemes/{scheme_id}/channels', { params: { path: { scheme_id: String(schemeId) } }, body: { name, device_type } })),
  );
  const id = `new-channel-${schemeId}`;
  return (
    <form
      class="inline"
      onSubmit={async (e) => {
        const v = formValues(e);
        if (await create.act(v.name ?? '', (v.device_type ?? 'ios') as (typeof DEVICE_TYPES)[number])) onCreated();
      }}
    >
      <Field label="New channel" name="name" placeholder="iOS" required />
      <div class="field">
        <label for={id}>Platform</label>
        <select id={id} name="device_type">
          {DEVICE_TYPES.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" disabled={create.busy}>
        Add channel
      </button>
      {create.error && <ErrorNote error={create.error} />}
    </form>
  );
}

export type { AppRole };
