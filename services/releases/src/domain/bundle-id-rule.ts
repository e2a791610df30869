/**
 * A channel's bundle id rule: `*` or empty accepts every package; otherwise a
 * glob where `*` matches any run of characters, matched against the whole id.
 */
export function matchesBundleIdRule(rule: string | undefined, bundleId: string): boolean {
  if (!rule || rule === '*') return true;
  const pattern = rule
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`).test(bundleId);
}
