import { FieldErrors, InvalidArgument } from '@hangar/errors';

/** At most this many days per query (each is one index-served query by day). */
export const MAX_AUDIT_DAYS = 31;
const DAY_MS = 24 * 3600 * 1000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface AuditQueryInput {
  day?: string;
  from?: string;
  to?: string;
  user_id?: string;
  app_id?: string;
  operation?: string;
}

export interface AuditQuery {
  days: string[];
  userId?: number;
  appId?: number;
  operation?: string;
}

/**
 * The audit log's filters. Time is day-granular: `day`, or `from`..`to`
 * (inclusive, UTC, at most 31 days) — FerretDB serves no range from an index,
 * so each day is asked by equality. Neither: today. Every problem at once, 422.
 */
export function readAuditQuery(input: AuditQueryInput, now = Date.now()): AuditQuery {
  const entry: FieldErrors = {};
  const problem = (field: string, message: string) => (entry[field] ??= []).push(message);
  const dayMs = (field: 'day' | 'from' | 'to'): number | undefined => {
    const text = input[field];
    if (text === undefined || text === '') return undefined;
    const ms = DAY.test(text) ? Date.parse(`${text}T00:00:00Z`) : NaN;
    if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== text) {
      problem(field, 'must be a date, YYYY-MM-DD');
      return undefined;
    }
    return ms;
  };
  const id = (field: 'user_id' | 'app_id'): number | undefined => {
    const text = input[field];
    if (text === undefined || text === '') return undefined;
    if (!/^[1-9]\d{0,15}$/.test(text) || !Number.isSafeInteger(Number(text))) {
      problem(field, 'must be a positive integer');
      return undefined;
    }
    return Number(text);
  };
  const day = dayMs('day');
  const from = dayMs('from');
  const to = dayMs('to');
  const userId = id('user_id');
  const appId = id('app_id');
  if (input.day && (input.from || input.to)) problem('day', 'cannot be combined with from and to');
  if ((input.from && !input.to) || (!input.from && input.to)) problem(input.from ? 'to' : 'from', "can't be blank when the other end of the range is given");
  let days: string[] = [new Date(now).toISOString().slice(0, 10)];
  if (day !== undefined) days = [input.day!];
  else if (from !== undefined && to !== undefined) {
    if (from > to) problem('from', 'must not be after to');
    else if ((to - from) / DAY_MS + 1 > MAX_AUDIT_DAYS) problem('to', `must be at most ${MAX_AUDIT_DAYS} days after from`);
    else days = Array.from({ length: (to - from) / DAY_MS + 1 }, (_, i) => new Date(from + i * DAY_MS).toISOString().slice(0, 10));
  }
  if (input.operation !== undefined && !/^[A-Za-z]{1,100}$/.test(input.operation)) problem('operation', 'must be an operationId of the API');
  if (Object.keys(entry).length > 0) throw new InvalidArgument(`Invalid audit query: ${Object.keys(entry).join(', ')}`, entry);
  return { days, ...(userId !== undefined ? { userId } : {}), ...(appId !== undefined ? { appId } : {}), ...(input.operation ? { operation: input.operation } : {}) };
}
