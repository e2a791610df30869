import { ApiError, api, must } from '../api/client';
import type { Schemas } from '../api/client';
import { Field, formValues } from '../ui/field';
import { ErrorNote } from '../ui/states';
import { useAction } from '../ui/use-action';

/** Email and password: the accounts the admin made. */
export function SignInPage({ onSignedIn }: { onSignedIn: (answer: Schemas['SignedIn']) => void }) {
  const signIn = useAction((email: string, password: string) => must(api.POST('/api/sessions', { body: { email, password } })));
  const entry = signIn.error instanceof ApiError ? signIn.error.entry : undefined;
  return (
    <main class="page narrow" id="main">
      <h1>Sign in to Hangar</h1>
      <form
        onSubmit={async (event) => {
          const { email = '', password = '' } = formValues(event);
          const answer = await signIn.act(email, password);
          if (answer) onSignedIn(answer);
        }}
      >
        <Field label="Email" name="email" type="email" autoComplete="username" required problems={entry?.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required problems={entry?.password} />
        {signIn.error && <ErrorNote error={signIn.error} />}
        <button type="submit" class="primary" disabled={signIn.busy}>
          {signIn.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p class="muted">No account? Ask your Hangar admin to create one.</p>
    </main>
  );
}
