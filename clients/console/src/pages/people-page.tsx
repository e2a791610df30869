import { useState } from 'preact/hooks';
import { api, must, mustPage } from '../api/client';
import { useApi } from '../api/use-api';
import { useSession } from '../session';
import { Field, formValues } from '../ui/field';
import { ErrorNote, Show } from '../ui/states';
import { useAction } from '../ui/use-action';

const ROLES = ['member', 'developer', 'admin'] as const;
type Role = (typeof ROLES)[number];
const PER_PAGE = 50;

/** Admins: every user, create, delete, set roles. */
export function PeoplePage() {
  const { user } = useSession();
  const [page, setPage] = useState(1);
  const people = useApi(() => mustPage(api.GET('/api/users', { params: { query: { page: String(page), per_page: String(PER_PAGE) } } })), [page]);
  const setRole = useAction((id: number, role: Role) => must(api.PATCH('/api/users/{id}', { params: { path: { id: String(id) } }, body: { role } })));
  const remove = useAction((id: number) => must(api.DELETE('/api/users/{id}', { params: { path: { id: String(id) } } })));
  if (user.role !== 'admin') return <ErrorNote error={new Error('Only admins manage people. Your own profile is under your name in the menu.')} />;
  return (
    <>
      <h1>People</h1>
      <NewUser onCreated={people.reload} />
      {(setRole.error ?? remove.error) && <ErrorNote error={(setRole.error ?? remove.error)!} />}
      <Show state={people} what="people">
        {({ items, total }) => (
          <>
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Users</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((p) => (
                    <tr key={p.id}>
                      <td>{p.username}</td>
                      <td>{p.email}</td>
                      <td>
                        <label class="visually-hidden" for={`user-role-${p.id}`}>
                          Role of {p.username}
                        </label>
                        <select id={`user-role-${p.id}`} value={p.role} onChange={async (e) => (await setRole.act(p.id, e.currentTarget.value as Role)) && people.reload()}>
                          {ROLES.map((r) => (
                            <option key={r} value={r}>
                              {r}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td>
                        {p.id !== user.id && (
                          <button type="button" class="danger" onClick={async () => confirm(`Delete ${p.username}? Their tokens and sessions end.`) && (await remove.act(p.id)) && people.reload()}>
                            Delete {p.username}
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {total > PER_PAGE && (
              <nav class="pager" aria-label="Pages of people">
                <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous
                </button>
                <span>
                  Page {page} of {Math.ceil(total / PER_PAGE)}
                </span>
                <button type="button" disabled={page * PER_PAGE >= total} onClick={() => setPage(page + 1)}>
                  Next
                </button>
              </nav>
            )}
          </>
        )}
      </Show>
    </>
  );
}

function NewUser({ onCreated }: { onCreated: () => void }) {
  const create = useAction((v: Record<string, string>) => must(api.POST('/api/users', { body: { username: v.username ?? '', email: v.email ?? '', password: v.password ?? '', role: v.role as Role } })));
  const entry = (create.error as { entry?: Record<string, string[]> } | undefined)?.entry;
  return (
    <form
      class="panel"
      onSubmit={async (e) => {
        const form = e.currentTarget as HTMLFormElement;
        if (await create.act(formValues(e))) {
          form.reset();
          onCreated();
        }
      }}
    >
      <h2>Add a person</h2>
      <div class="grid">
        <Field label="Name" name="username" required problems={entry?.username} />
        <Field label="Email" name="email" type="email" required problems={entry?.email} />
        <Field label="Initial password" name="password" type="password" autoComplete="new-password" required problems={entry?.password} />
        <div class="field">
          <label for="new-user-role">Role</label>
          <select id="new-user-role" name="role">
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
      </div>
      <button type="submit" class="primary" disabled={create.busy}>
        Add person
      </button>
      {create.error && <ErrorNote error={create.error} />}
    </form>
  );
}
