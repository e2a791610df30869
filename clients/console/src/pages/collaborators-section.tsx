import { api, must } from '../api/client';
import { useApi } from '../api/use-api';
import { useSession } from '../session';
import { Field, formValues } from '../ui/field';
import { ErrorNote, Show } from '../ui/states';
import { useAction } from '../ui/use-action';

const ROLES = ['member', 'developer', 'admin'] as const;
type Role = (typeof ROLES)[number];

/** Who works on the app, and as what (app admins). */
export function CollaboratorsSection({ appId }: { appId: number }) {
  const { user } = useSession();
  const path = { app_id: String(appId) };
  const list = useApi(() => must(api.GET('/api/apps/{app_id}/collaborators', { params: { path } })), [appId]);
  const change = useAction((userId: number, role: Role) => must(api.PUT('/api/apps/{app_id}/collaborators/{user_id}', { params: { path: { ...path, user_id: String(userId) } }, body: { role } })));
  const remove = useAction((userId: number) => must(api.DELETE('/api/apps/{app_id}/collaborators/{user_id}', { params: { path: { ...path, user_id: String(userId) } } })));
  const add = useAction(async (who: string, role: Role) => {
    // Admins may look people up by email; others name them by user id.
    let userId = Number(who);
    if (!Number.isInteger(userId) || userId <= 0) {
      const found = await must(api.GET('/api/users/search', { params: { query: { email: who } } }));
      if (!found[0]) throw new Error(`No user has the email ${who}.`);
      userId = found[0].id;
    }
    return must(api.POST('/api/apps/{app_id}/collaborators', { params: { path }, body: { user_id: userId, role } }));
  });
  const error = change.error ?? remove.error;
  return (
    <section aria-labelledby="collaborators-heading" class="panel">
      <h2 id="collaborators-heading">Collaborators</h2>
      <Show state={list} what="collaborators">
        {(people) => (
          <ul class="plain rows">
            {people.map((p) => (
              <li key={p.id}>
                <span>
                  {p.username} <span class="muted">{p.email}</span>
                </span>
                <label class="visually-hidden" for={`role-${p.id}`}>
                  Role of {p.username}
                </label>
                <select id={`role-${p.id}`} value={p.role} onChange={async (e) => (await change.act(p.id, e.currentTarget.value as Role)) && list.reload()}>
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
                <button type="button" onClick={async () => (await remove.act(p.id)) && list.reload()}>
                  Remove {p.username}
                </button>
              </li>
            ))}
          </ul>
        )}
      </Show>
      {error && <ErrorNote error={error} />}
      <form
        class="inline"
        onSubmit={async (e) => {
          const v = formValues(e);
          if (await add.act((v.who ?? '').trim(), (v.role ?? 'member') as Role)) list.reload();
        }}
      >
        <Field label={user.role === 'admin' ? 'Email or user id' : 'User id'} name="who" required />
        <div class="field">
          <label for="new-collaborator-role">Role</label>
          <select id="new-collaborator-role" name="role">
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={add.busy}>
          Add collaborator
        </button>
      </form>
      {add.error && <ErrorNote error={add.error} />}
    </section>
  );
}
