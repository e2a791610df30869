/**
 * What a span may say about a URL. Query strings carry secrets here
 * (`?token=`, install-page passwords, presigned signatures) and so do some
 * paths (symbol-server credentials, a webhook receiver's secret path), so span
 * attributes get the path only, and an incoming request's path only once its
 * route template is known (`/debuginfod/:credential/…`, never the values).
 */
export function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

/** Route template of an express request (`baseUrl` + `route.path`), if one matched. */
export function routeTemplateOf(request: unknown): string | undefined {
  const r = request as { route?: { path?: unknown }; baseUrl?: unknown };
  if (typeof r.route?.path !== 'string') return undefined;
  return `${typeof r.baseUrl === 'string' ? r.baseUrl : ''}${r.route.path}`;
}

/** Placeholder for a path that matched no route: it may hold anything. */
export const UNMATCHED_PATH = '(unmatched)';
