import type { ComponentChildren } from 'preact';
import { Link, useLocation } from './router';
import { useSession } from './session';

/** One layout: the header with where one can go, then the page. */
export function Layout({ children }: { children: ComponentChildren }) {
  const { user, signOut } = useSession();
  const path = useLocation().pathname;
  const current = (prefix: string) => (path === prefix || path.startsWith(`${prefix}/`) ? 'page' : undefined);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <Link href="/apps" class="brand">
          Hangar
        </Link>
        <nav aria-label="Main">
          <Link href="/apps" aria-current={current('/apps')}>
            Apps
          </Link>
          <Link href="/upload" aria-current={current('/upload')}>
            Upload
          </Link>
          {user.role === 'admin' && (
            <Link href="/people" aria-current={current('/people')}>
              People
            </Link>
          )}
          <Link href="/account" aria-current={current('/account')}>
            {user.username}
          </Link>
          <button type="button" class="link" onClick={() => void signOut()}>
            Sign out
          </button>
        </nav>
      </header>
      <main id="main" class="page" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
