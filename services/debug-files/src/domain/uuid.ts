import { InvalidArgument } from '@hangar/errors';

/**
 * A UUID as crash reporters write it — any case, with or without dashes,
 * optionally braced — in the stored form: lowercase 8-4-4-4-12.
 */
export function normalizeUuid(value: string): string {
  const hex = value.trim().replace(/^\{|\}$/g, '').replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw InvalidArgument.field('uuid', 'must be a UUID (32 hexadecimal digits, dashes optional)');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
