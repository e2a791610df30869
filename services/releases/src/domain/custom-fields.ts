import { InvalidArgument } from '@hangar/errors';

export interface CustomField {
  name: string;
  value: string;
  icon?: string;
}

const MAX_FIELDS = 100;

/**
 * `custom_fields`: a JSON array of `{name, value, icon?}`; anything else is refused. Entries that
 * are not objects are dropped, as Zealot shows none of them: the fastlane plugin sends `["[]"]`
 * when a Fastfile leaves the option unset (fastlane splits its `'[]'` default on commas), and
 * `ZEALOT_CUSTOM_FIELDS=a,b` arrives as `["a","b"]` (docs/decisions.md).
 */
export function parseCustomFields(raw: string | undefined): CustomField[] {
  if (raw === undefined || raw.trim() === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw invalid('must be a JSON array of {name, value, icon}');
  }
  if (!Array.isArray(json)) throw invalid('must be a JSON array of {name, value, icon}');
  if (json.length > MAX_FIELDS) throw invalid(`has more than ${MAX_FIELDS} fields`);
  return json.flatMap((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return [];
    const field = item as Record<string, unknown>;
    if (typeof field.name !== 'string' || field.name.trim() === '') throw invalid(`field ${i} needs a name`);
    const value = field.value;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw invalid(`field ${i} needs a text value`);
    if (field.icon !== undefined && field.icon !== null && typeof field.icon !== 'string') throw invalid(`field ${i}: icon must be a string`);
    return [{ name: field.name, value: String(value), ...(typeof field.icon === 'string' && field.icon ? { icon: field.icon } : {}) }];
  });
}

function invalid(problem: string): InvalidArgument {
  return InvalidArgument.field('custom_fields', problem);
}
