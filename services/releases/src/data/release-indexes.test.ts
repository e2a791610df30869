import mongoose from 'mongoose';
import { releaseModel } from './release.model';

/**
 * Every release query has an index that serves it: its equality fields first, then its sort
 * (fast with a million releases). The plan check (tests/plans) explains the queries
 * themselves on the default engine; this keeps the declarations, which MongoDB uses with
 * the sort too, from drifting away from the queries in releases.repository.ts.
 */
describe('release indexes', () => {
  // A model on a connection that never connects: only its schema is read.
  const indexes = releaseModel(mongoose.createConnection()).schema.indexes().map(([keys]) => Object.entries(keys));

  /** An index whose leading keys are `equality` (any order), then `sort` in order and direction. */
  const serves = (equality: string[], sort: [string, 1 | -1][] = []) =>
    indexes.some((keys) => {
      const lead = keys.slice(0, equality.length).map(([field]) => field);
      if (lead.length !== equality.length || !equality.every((field) => lead.includes(field))) return false;
      const rest = keys.slice(equality.length);
      return sort.every(([field, dir], i) => rest[i]?.[0] === field && rest[i]?.[1] === dir);
    });

  it.each([
    // versions, latest and version_exist all read a channel's live releases this way (domain/channel-releases.ts).
    ['the version queries: a channel, newest upload first', ['channelId'], [['_id', -1]]],
    ['the per-channel version sequence', ['channelId', 'version'], []],
    ['the janitor: which packages a release refers to', ['objectKey'], []],
    ['the janitor: which icons a release refers to', ['iconKey'], []],
  ] as [string, string[], [string, 1 | -1][]][])('when %s is queried, then an index serves it', (_name, equality, sort) => {
    expect(serves(equality, sort)).toBe(true);
  });
});
