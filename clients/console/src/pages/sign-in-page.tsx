import { ApiError, api, must } from '../api/client';
import type { Schemas } from '../api/client';
import { useApi } from '../api/use-api';
import { Field, formValues } from '../ui/field';
import { ErrorNote } from '../ui/states';
import { useAction } from '../ui/use-action';

/**
 * Email and password (the accounts the admin made), and the organisation's
 * identity provider when one is configured. With single sign-on only, the
 * password form stays for admins alone (break-glass), folded away.
 */
export function SignInPage({ onSignedIn }: { onSignedIn: (answer: Schemas['SignedIn']) => void }) {
  const options = useApi(() => must(api.GET('/api/sessions/options')), []);
  const sso = options.data?.single_sign_on;
  const adminsOnly = options.data?.password_sign_in === 'admins_only';
  // Until the options are known, no form that might fold away a moment later (a failure shows the password form).
  if (options.loading && !options.data) return <main class="page narrow" id="main"><h1>Sign in to Hangar</h1></main>;
  return (
    <main class="page narrow" id="main">
      <h1>Sign in to Hangar</h1>
      {sso && (
        <p>
          <a class="button primary" href={sso.start_url}>
            Sign in with {sso.provider_name}
          </a>
        </p>
      )}
      {adminsOnly ? (
        <details>
          <summary>Admin sign-in with a password (break-glass, recorded in the audit log)</summary>
          <PasswordForm onSignedIn={onSignedIn} primary={false} />
        </details>
      ) : (
        <>
          {sso && <p class="muted">Or with your Hangar password:</p>}
          <PasswordForm onSignedIn={onSignedIn} primary={!sso} />
          <p class="muted">No account? {sso ? `Sign in with ${sso.provider_name}, or ask` : 'Ask'} your Hangar admin to create one.</p>
        </>
      )}
    </main>
  );
}

function PasswordForm({ onSignedIn, primary }: { onSignedIn: (answer: Schemas['SignedIn']) => void; primary: boolean }) {
  const signIn = useAction((email: string, password: string) => must(api.POST('/api/sessions', { body: { email, password } })));
  const entry = signIn.error instanceof ApiError ? signIn.error.entry : undefined;
  return (
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
      <button type="submit" class={primary ? 'primary' : undefined} disabled={signIn.busy}>
        {signIn.busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
