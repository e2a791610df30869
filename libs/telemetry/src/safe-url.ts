import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { redactQuery, redactText, redactUrl } from '@hangar/logger';

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

/** URL-bearing span attributes of both HTTP semantic conventions. */
const URL_ATTRIBUTES = ['url.full', 'http.url', 'url.path', 'http.target'];

/**
 * The last word before export, whatever set an attribute (an instrumentation,
 * a hand-made span, a request aborted before its custom attributes were
 * applied): URL attributes, the query attribute, exception events and the
 * status message go through the same redaction as the logs (libs/logger,
 * redaction.ts). A value equal to the span's `http.route` is the router's
 * template (`/debuginfod/:credential/…`), kept as it is.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    const attributes = span.attributes as Record<string, unknown>;
    const route = attributes['http.route'];
    for (const key of URL_ATTRIBUTES) {
      const value = attributes[key];
      if (typeof value === 'string' && value !== route) attributes[key] = redactUrl(value);
    }
    if (typeof attributes['url.query'] === 'string') attributes['url.query'] = redactQuery(attributes['url.query']);
    for (const event of span.events) {
      const eventAttributes = (event.attributes ?? {}) as Record<string, unknown>;
      for (const [key, value] of Object.entries(eventAttributes)) {
        if (typeof value === 'string') eventAttributes[key] = redactText(value);
      }
    }
    if (span.status.message) (span.status as { message?: string }).message = redactText(span.status.message);
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
