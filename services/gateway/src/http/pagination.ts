import type { Request, Response } from 'express';
import { FieldErrors, InvalidArgument } from '@hangar/errors';
import { queryText } from './input';

export interface Page {
  page: number;
  perPage: number;
}

export const MAX_PER_PAGE = 100;

/** `page` >= 1 (default 1), `per_page` 1..100 (default 25); anything else is 422. */
export function parsePage(req: Request): Page {
  const entry: FieldErrors = {};
  const read = (name: string, fallback: number, max: number): number => {
    const raw = queryText(req, name);
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
      entry[name] = [max === Infinity ? 'must be an integer >= 1' : `must be an integer from 1 to ${max}`];
      return fallback;
    }
    return Number(raw);
  };
  const page = read('page', 1, Infinity);
  const perPage = read('per_page', 25, MAX_PER_PAGE);
  if (Object.keys(entry).length > 0) throw new InvalidArgument('Invalid pagination', entry);
  return { page, perPage };
}

/**
 * `X-Total-Count` and an RFC 8288 `Link` header (first, prev, next, last).
 * Link URLs keep the request's query but never its `token`: credentials are
 * not echoed into headers that proxies log.
 */
export function setPageHeaders(req: Request, res: Response, { page, perPage }: Page, total: number, baseUrl: string): void {
  res.setHeader('X-Total-Count', String(total));
  const last = Math.max(1, Math.ceil(total / perPage));
  const url = new URL(req.originalUrl, baseUrl);
  url.searchParams.delete('token');
  const link = (n: number, rel: string) => {
    url.searchParams.set('page', String(n));
    url.searchParams.set('per_page', String(perPage));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'));
  links.push(link(last, 'last'));
  const header = links.join(', ');
  // Four copies of a long query made response headers that clients and proxies refuse (fetch:
  // "Headers Overflow" past 16 KiB; nginx's default buffer is 4-8 KiB, a 502). Such a
  // request gets its page without links; X-Total-Count still tells how many there are.
  if (header.length <= MAX_LINK_HEADER) res.setHeader('Link', header);
}

const MAX_LINK_HEADER = 4096;
