import type { NextFunction, Request, Response } from 'express';
import { Metrics, httpServerMetrics } from '@hangar/metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The route label: the express pattern that answered (`/api/apps/:id`), never
 * the path itself, so no id, channel key or token becomes a label and the
 * number of series stays bounded. Static assets share one label; anything no
 * route answered (unknown paths, a 401 before routing) is `unmatched`.
 */
export function routeLabel(req: Request): string {
  const pattern = req.route?.path;
  if (typeof pattern === 'string') return pattern;
  if (req.path.startsWith('/assets/')) return '/assets';
  return 'unmatched';
}

/** hangar_http_requests_total and hangar_http_request_duration_seconds, by method, route and status. */
export function httpMetrics(metrics: Metrics) {
  const { requests, duration } = httpServerMetrics(metrics);
  return (req: Request, res: Response, next: NextFunction) => {
    const stop = duration.startTimer();
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      const labels = { method: METHODS.has(req.method) ? req.method : 'OTHER', route: routeLabel(req), status: String(res.statusCode) };
      requests.inc(labels);
      stop(labels);
    };
    res.once('finish', record);
    // The client went away before the response ended.
    res.once('close', record);
    next();
  };
}
