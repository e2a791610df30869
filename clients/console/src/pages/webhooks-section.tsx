import { useState } from 'preact/hooks';
import { api, must } from '../api/client';
import type { Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { Field, formValues } from '../ui/field';
import { formatTime } from '../ui/format';
import { ErrorNote, Show } from '../ui/states';
import { useAction } from '../ui/use-action';

/** The body a webhook posts: Hangar's signed JSON, or a chat platform's message (docs/events.md, Chat presets). */
const FORMATS: { value: Schemas['Webhook']['format']; label: string }[] = [
  { value: 'generic', label: 'Hangar JSON (signed)' },
  { value: 'slack', label: 'Slack' },
  { value: 'teams', label: 'Microsoft Teams (Workflows)' },
  { value: 'discord', label: 'Discord' },
  { value: 'feishu', label: 'Feishu / Lark' },
  { value: 'dingtalk', label: 'DingTalk' },
  { value: 'wecom', label: 'WeCom' },
];
const formatLabel = (format: string) => FORMATS.find((f) => f.value === format)?.label ?? format;

/** Webhooks of an app: create (the secret shown once), delivery log, send test, delete. */
export function WebhooksSection({ appId }: { appId: number }) {
  const path = { app_id: String(appId) };
  const hooks = useApi(() => must(api.GET('/api/apps/{app_id}/webhooks', { params: { path } })), [appId]);
  const create = useAction((url: string, events: string, format: string) => must(api.POST('/api/apps/{app_id}/webhooks', { params: { path }, body: { url, events, format } })));
  return (
    <section aria-labelledby="webhooks-heading" class="panel">
      <h2 id="webhooks-heading">Webhooks</h2>
      <Show state={hooks} what="webhooks">
        {(list) => (list.length === 0 ? <p class="muted">No webhooks yet.</p> : <>{list.map((h) => <WebhookRow key={h.id} hook={h} onDeleted={hooks.reload} />)}</>)}
      </Show>
      <form
        onSubmit={async (e) => {
          const v = formValues(e);
          if (await create.act(v.url ?? '', v.events ?? '', v.format ?? 'generic')) hooks.reload();
        }}
      >
        <div class="grid">
          <Field label="Webhook URL" name="url" type="url" required placeholder="https://ci.example.com/hooks/hangar" />
          <Field label="Events (comma-separated; empty for all)" name="events" placeholder="release.created" />
          <div class="field">
            <label for="new-webhook-format">Message format</label>
            <select id="new-webhook-format" name="format" defaultValue="generic">
              {FORMATS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" disabled={create.busy}>
          Add webhook
        </button>
      </form>
      {create.error && <ErrorNote error={create.error} />}
      {create.result && (
        <div class="secret" role="status">
          <p>
            Signing secret of the new webhook — copy it now, it is not shown again:
          </p>
          <code class="wrap">{create.result.secret}</code>
        </div>
      )}
    </section>
  );
}

function WebhookRow({ hook, onDeleted }: { hook: Schemas['Webhook']; onDeleted: () => void }) {
  const [open, setOpen] = useState(false);
  const path = { id: String(hook.id) };
  const test = useAction(() => must(api.POST('/api/webhooks/{id}/test', { params: { path } })));
  const remove = useAction(() => must(api.DELETE('/api/webhooks/{id}', { params: { path } })));
  return (
    <div class="subpanel">
      <p class="wrap">
        <strong>{hook.url}</strong> <span class="muted">{hook.events.length ? hook.events.join(', ') : 'every event'} · {formatLabel(hook.format)}</span>
      </p>
      <button
        type="button"
        onClick={async () => {
          await test.act();
          setOpen(true);
        }}
        disabled={test.busy}
      >
        Send test
      </button>{' '}
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide deliveries' : 'Show deliveries'}
      </button>{' '}
      <button type="button" class="danger" onClick={async () => confirm(`Delete the webhook to ${hook.url}?`) && (await remove.act()) && onDeleted()}>
        Delete
      </button>
      {test.result && (
        <p role="status">
          Test sent: {test.result.success ? `delivered (${test.result.status_code})` : `failed — ${test.result.error ?? `HTTP ${test.result.status_code}`}`}
        </p>
      )}
      {(test.error ?? remove.error) && <ErrorNote error={(test.error ?? remove.error)!} />}
      {open && <Deliveries webhookId={hook.id} refresh={test.result} />}
    </div>
  );
}

function Deliveries({ webhookId, refresh }: { webhookId: number; refresh: unknown }) {
  const log = useApi(() => must(api.GET('/api/webhooks/{id}/deliveries', { params: { path: { id: String(webhookId) }, query: { per_page: '20' } } })), [webhookId, refresh]);
  return (
    <Show state={log} what="deliveries">
      {(list) =>
        list.length === 0 ? (
          <p class="muted">No deliveries yet.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Delivery log, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {list.map((d) => (
                  <tr key={d.id}>
                    <td>{formatTime(d.created_at)}</td>
                    <td>{d.event}</td>
                    <td>{d.attempt}</td>
                    <td>{d.success ? `OK ${d.status_code}` : `Failed: ${d.error ?? `HTTP ${d.status_code}`}`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </Show>
  );
}
