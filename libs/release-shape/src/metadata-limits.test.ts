import { releases } from '@hangar/proto';
import { RELEASE_FIELD_LIMITS, oversizedReleaseFields } from './metadata-limits';

describe('release metadata limits', () => {
  it('when every field is at its limit, then nothing is refused; one byte more is, per field, in UTF-8 bytes', () => {
    const atLimit = Object.fromEntries(Object.entries(RELEASE_FIELD_LIMITS).map(([k, n]) => [k, 'a'.repeat(n)]));
    expect(oversizedReleaseFields(atLimit)).toEqual({});
    expect(oversizedReleaseFields({ branch: 'a'.repeat(100 * 1024) })).toEqual({ branch: ['is too long (at most 255 bytes)'] });
    // 128 two-byte characters are 256 bytes.
    expect(Object.keys(oversizedReleaseFields({ git_commit: 'é'.repeat(65), name: 'é'.repeat(127) }))).toEqual(['git_commit']);
  });

  it('when a page of 100 releases carries every field at its limit, then it stays under 3 MiB of gRPC\'s 4 MiB message limit', () => {
    const text = (field: keyof typeof RELEASE_FIELD_LIMITS) => 'x'.repeat(RELEASE_FIELD_LIMITS[field]);
    // Stored parsed: a plain-text changelog of one-character lines (`a\n`) is the most entries its bytes can become;
    // custom fields are at most 100, in 4 KiB of JSON (`{"name":"…","value":"…"},` is 24 bytes beside them).
    const release: releases.Release = {
      ...releases.Release.decode(new Uint8Array()),
      appName: text('name'), releaseType: text('release_type'), source: text('source'), branch: text('branch'), gitCommit: text('git_commit'),
      ciUrl: text('ci_url'), releaseVersion: text('release_version'), buildVersion: text('build_version'),
      changelog: Array.from({ length: RELEASE_FIELD_LIMITS.changelog / 2 }, () => ({ message: 'x', author: '', email: '', date: '' })),
      customFields: Array.from({ length: 100 }, () => ({ name: 'x'.repeat(30), value: 'x'.repeat(12), icon: '' })),
    };
    const page = releases.ReleaseList.encode({ releases: Array.from({ length: 100 }, () => release), total: 100, context: undefined }).finish();
    expect(page.length).toBeLessThan(3 * 1024 * 1024);
  });
});
