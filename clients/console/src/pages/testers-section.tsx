import { useState } from 'preact/hooks';
import { api, must } from '../api/client';
import type { Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { CopyButton } from '../ui/copy';
import { Field, formValues } from '../ui/field';
import { ErrorNote, Show } from '../ui/states';
import { Time } from '../ui/time';
import { useAction } from '../ui/use-action';
import { TesterDevicesPanel } from './tester-devices-panel';

type App = Schemas['App'];
type TesterGroup = Schemas['TesterGroup'];

/** The app's tester groups (app admins): who is in each, their state, the channels each opens, join links. */
export function TestersSection({ app }: { app: App }) {
  const path = { app_id: String(app.id) };
  const groups = useApi(() => must(api.GET('/api/apps/{app_id}/tester_groups', { params: { path } })), [app.id]);
  const channels = app.schemes.flatMap((s) => s.channels.map((c) => ({ id: c.id, label: `${s.name} · ${c.name}`, ios: c.device_type === 'ios' })));
  const create = useAction((name: string, channelIds: number[]) => must(api.POST('/api/apps/{app_id}/tester_groups', { params: { path }, body: { name, channel_ids: channelIds } })));
  return (
    <section aria-labelledby="testers-heading" class="panel">
      <h2 id="testers-heading">Testers</h2>
      <p class="muted">Testers need no account: each gets an e-mail with a sign-in link to the builds of their group's channels, password-protected ones included.</p>
      <Show state={groups} what="tester groups">
        {(list) => (list.length === 0 ? <p>No tester groups yet.</p> : list.map((g) => <GroupPanel key={g.id} appId={app.id} group={g} channels={channels} onChanged={groups.reload} />))}
      </Show>
      <form
        class="stacked"
        onSubmit={async (e) => {
          const form = e.currentTarget as HTMLFormElement;
          const chosen = [...form.querySelectorAll<HTMLInputElement>('input[name="channel"]:checked')].map((i) => Number(i.value));
          const v = formValues(e);
          if (await create.act((v.name ?? '').trim(), chosen)) {
            form.reset();
            groups.reload();
          }
        }}
      >
        <h3>New tester group</h3>
        <Field label="Group name" name="name" required />
        <ChannelChoices channels={channels} chosen={[]} idPrefix="new-group" />
        <button type="submit" disabled={create.busy}>
          Create group
        </button>
      </form>
      {create.error && <ErrorNote error={create.error} />}
      <Show state={groups} what="tester groups">
        {(list) => {
          // The iOS channels some group opens: where testers' devices and ad hoc builds meet.
          const opened = new Set(list.flatMap((g) => g.channel_ids));
          return channels.filter((c) => c.ios && opened.has(c.id)).map((c) => <TesterDevicesPanel key={c.id} channelId={c.id} label={c.label} />);
        }}
      </Show>
    </section>
  );
}

function ChannelChoices({ channels, chosen, idPrefix }: { channels: { id: number; label: string }[]; chosen: number[]; idPrefix: string }) {
  return (
    <fieldset>
      <legend>Channels it opens</legend>
      {channels.length === 0 && <p class="muted">The app has no channels yet.</p>}
      {channels.map((c) => (
        <div class="check" key={c.id}>
          <input id={`${idPrefix}-${c.id}`} type="checkbox" name="channel" value={String(c.id)} defaultChecked={chosen.includes(c.id)} />
          <label for={`${idPrefix}-${c.id}`}>{c.label}</label>
        </div>
      ))}
    </fieldset>
  );
}

function GroupPanel({ appId, group, channels, onChanged }: { appId: number; group: TesterGroup; channels: { id: number; label: string }[]; onChanged: () => void }) {
  const path = { app_id: String(appId), group_id: String(group.id) };
  const [joinUrl, setJoinUrl] = useState<string | undefined>();
  const add = useAction((emails: string) => must(api.POST('/api/apps/{app_id}/tester_groups/{group_id}/testers', { params: { path }, body: { emails } })));
  const remove = useAction((testerId: number) => must(api.DELETE('/api/apps/{app_id}/tester_groups/{group_id}/testers/{tester_id}', { params: { path: { ...path, tester_id: String(testerId) } } })));
  const save = useAction((channelIds: number[]) => must(api.PATCH('/api/apps/{app_id}/tester_groups/{group_id}', { params: { path }, body: { channel_ids: channelIds } })));
  const drop = useAction(() => must(api.DELETE('/api/apps/{app_id}/tester_groups/{group_id}', { params: { path } })));
  const link = useAction((seats: number) => must(api.POST('/api/apps/{app_id}/tester_groups/{group_id}/join_links', { params: { path }, body: { seats } })));
  const labelOf = (id: number) => channels.find((c) => c.id === id)?.label ?? `channel ${id}`;
  const error = add.error ?? remove.error ?? save.error ?? drop.error ?? link.error;
  const headingId = `group-${group.id}`;
  return (
    <article aria-labelledby={headingId} class="subpanel">
      <h3 id={headingId}>
        {group.name} <span class="muted small">opens {group.channel_ids.length ? group.channel_ids.map(labelOf).join(', ') : 'no channel'}</span>
      </h3>
      {group.testers.length === 0 ? (
        <p class="muted">No testers yet.</p>
      ) : (
        <div class="table-wrap">
        <table class="rows">
          <thead>
            <tr>
              <th scope="col">Tester</th>
              <th scope="col">State</th>
              <th scope="col">Last download</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {group.testers.map((t) => (
              <tr key={t.id}>
                <td>{t.email}</td>
                <td>{t.state === 'joined' && t.joined_at ? <Time iso={t.joined_at} prefix="joined " /> : 'invited'}</td>
                <td>{t.last_download ? <Time iso={t.last_download.at} prefix={`build #${t.last_download.release_id}, `} /> : '—'}</td>
                <td>
                  <button type="button" onClick={async () => (await remove.act(t.id)) && onChanged()}>
                    Remove {t.email}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
      <form
        class="stacked"
        onSubmit={async (e) => {
          // Taken before the await: the event's currentTarget is gone once the handler has yielded.
          const form = e.currentTarget as HTMLFormElement;
          if (await add.act(formValues(e).emails ?? '')) {
            form.reset();
            onChanged();
          }
        }}
      >
        <label for={`emails-${group.id}`}>Add testers: e-mail addresses, one per line, or a pasted CSV</label>
        <textarea id={`emails-${group.id}`} name="emails" rows={3} required />
        <button type="submit" disabled={add.busy}>
          Invite
        </button>
      </form>
      <form
        class="stacked"
        onSubmit={async (e) => {
          const form = e.currentTarget as HTMLFormElement;
          e.preventDefault();
          const chosen = [...form.querySelectorAll<HTMLInputElement>('input[name="channel"]:checked')].map((i) => Number(i.value));
          if (await save.act(chosen)) onChanged();
        }}
      >
        <ChannelChoices channels={channels} chosen={group.channel_ids} idPrefix={`group-${group.id}`} />
        <button type="submit" disabled={save.busy}>
          Save channels
        </button>
      </form>
      <form
        class="inline"
        onSubmit={async (e) => {
          const created = await link.act(Number(formValues(e).seats || 0));
          if (created) setJoinUrl(created.url);
        }}
      >
        <Field label="Seats (0: no limit)" name="seats" type="number" min={0} defaultValue="0" />
        <button type="submit" disabled={link.busy}>
          Make a join link
        </button>
      </form>
      {joinUrl && (
        <p role="status">
          Join link (shown once): <code>{joinUrl}</code> <CopyButton text={joinUrl} label="Copy join link" />
        </p>
      )}
      <button type="button" class="danger" onClick={async () => window.confirm(`Delete the group ${group.name}? Its testers lose access.`) && (await drop.act()) && onChanged()}>
        Delete group {group.name}
      </button>
      {error && <ErrorNote error={error} />}
    </article>
  );
}
