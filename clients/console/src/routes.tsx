import { useEffect } from 'preact/hooks';
import type { JSX } from 'preact';
import { AccountPage } from './pages/account-page';
import { AppPage } from './pages/app-page';
import { AppSettingsPage } from './pages/app-settings-page';
import { AppsPage } from './pages/apps-page';
import { DebugFilesPage } from './pages/debug-files-page';
import { PeoplePage } from './pages/people-page';
import { ReleasePage } from './pages/release-page';
import { UploadPage } from './pages/upload-page';
import { match, navigate, useLocation } from './router';
import { Empty } from './ui/states';

type Params = Record<string, string>;

/** Every page of the console and its URL, in one table. */
const ROUTES: [string, (p: Params) => JSX.Element][] = [
  ['/apps', () => <AppsPage />],
  ['/apps/:appId', (p) => <AppPage appId={Number(p.appId)} />],
  ['/apps/:appId/settings', (p) => <AppSettingsPage appId={Number(p.appId)} />],
  ['/apps/:appId/debug-files', (p) => <DebugFilesPage appId={Number(p.appId)} />],
  ['/builds/:id', (p) => <ReleasePage id={Number(p.id)} />],
  ['/upload', () => <UploadPage />],
  ['/people', () => <PeoplePage />],
  ['/account', () => <AccountPage />],
];

export function PageFor() {
  const url = useLocation();
  useEffect(() => {
    if (url.pathname === '/' || url.pathname === '') navigate('/apps', true);
  }, [url.pathname]);
  // A new page: focus moves to it, so keyboard and screen-reader users start at its top.
  useEffect(() => document.getElementById('main')?.focus(), [url.pathname]);
  for (const [pattern, page] of ROUTES) {
    const params = match(pattern, url.pathname);
    if (params) return page(params);
  }
  return <Empty>There is no page at {url.pathname}. Go to the apps list from the menu above.</Empty>;
}
