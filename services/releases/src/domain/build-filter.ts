import { FieldErrors, InvalidArgument } from '@hangar/errors';
import type { ReleaseDocument } from '../data/release.model';

/** What the console's builds filter narrows a channel's list by; absent fields match everything. */
export interface BuildFilter {
  releaseVersion?: string;
  branch?: string;
  gitCommit?: string;
}

const MAX_FILTER_LENGTH = 200;

/**
 * The filter's checked form. Too long a value is refused rather than matched
 * (nothing that long is stored: a clear 422 beats an always-empty page).
 */
export function readBuildFilter(raw: { releaseVersion?: string; branch?: string; gitCommit?: string } | undefined): BuildFilter {
  const filter: BuildFilter = {};
  const entry: FieldErrors = {};
  const take = (field: keyof BuildFilter, name: string) => {
    const value = raw?.[field]?.trim() ?? '';
    if (!value) return;
    if (value.length > MAX_FILTER_LENGTH) entry[name] = [`is too long (maximum is ${MAX_FILTER_LENGTH} characters)`];
    else filter[field] = value;
  };
  take('releaseVersion', 'release_version');
  take('branch', 'branch');
  take('gitCommit', 'git_commit');
  if (Object.keys(entry).length) throw new InvalidArgument('The builds filter is invalid', entry);
  return filter;
}

/**
 * Whether a release passes: its release version is the filter's or a dotted
 * extension of it ("1.2" → "1.2", "1.2.3", not "1.20"), its branch is the
 * filter's exactly, its commit starts with the filter's (any case: short hashes).
 */
export function matchesBuildFilter(release: Pick<ReleaseDocument, 'releaseVersion' | 'branch' | 'gitCommit'>, filter: BuildFilter): boolean {
  if (filter.releaseVersion !== undefined) {
    const version = release.releaseVersion ?? '';
    if (version !== filter.releaseVersion && !version.startsWith(`${filter.releaseVersion}.`)) return false;
  }
  if (filter.branch !== undefined && (release.branch ?? '') !== filter.branch) return false;
  if (filter.gitCommit !== undefined && !(release.gitCommit ?? '').toLowerCase().startsWith(filter.gitCommit.toLowerCase())) return false;
  return true;
}

export function isEmptyFilter(filter: BuildFilter): boolean {
  return filter.releaseVersion === undefined && filter.branch === undefined && filter.gitCommit === undefined;
}
