import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, must, setCsrfToken, whenSignedOut } from './api/client';
import { Layout } from './layout';
import { SignInPage } from './pages/sign-in-page';
import { PageFor } from './routes';
import { SessionContext, User } from './session';
import { ErrorNote, Loading } from './ui/states';

/** Light, dark, or the system's, as the user chose in their profile. */
function useAppearance(appearance: string | undefined) {
  useEffect(() => {
    document.documentElement.dataset.appearance = appearance === 'light' || appearance === 'dark' ? appearance : 'auto';
  }, [appearance]);
}

/** Who is signed in decides everything else: the sign-in page, or the console. */
export function App() {
  const [user, setUser] = useState<User | null | undefined>(undefined);
  const [failure, setFailure] = useState<Error | undefined>();
  useAppearance(user?.appearance);

  const signedIn = (answer: { user: User; csrf_token: string }) => {
    setCsrfToken(answer.csrf_token);
    setUser(answer.user);
  };

  const lookUp = () => {
    setFailure(undefined);
    must(api.GET('/api/sessions/current')).then(signedIn, (err: Error) => {
      if (err instanceof ApiError && err.status === 401) setUser(null);
      else setFailure(err);
    });
  };
  useEffect(() => {
    whenSignedOut(() => setUser(null));
    lookUp();
  }, []);

  if (failure) return <main class="page"><ErrorNote error={failure} retry={lookUp} /></main>;
  if (user === undefined) return <main class="page"><Loading what="your session" /></main>;
  if (user === null) return <SignInPage onSignedIn={signedIn} />;

  const signOut = async () => {
    await must(api.DELETE('/api/sessions/current')).catch(() => undefined);
    setCsrfToken('');
    setUser(null);
  };
  return (
    <SessionContext.Provider value={{ user, signOut, setUser }}>
      <Layout>
        <PageFor />
      </Layout>
    </SessionContext.Provider>
  );
}
