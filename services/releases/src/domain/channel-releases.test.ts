import type { Generations } from '@hangar/cache';
import { versionSortKey } from '@hangar/versions';
import type { ReleaseDocument } from '../data/release.model';
import { ChannelReleases, compareBytes } from './channel-releases';

function generationsInMemory(): Generations {
  const values = new Map<string, number>();
  return {
    read: async (keys) => keys.map((k) => values.get(k) ?? 0),
    bump: async (keys) => keys.forEach((k) => values.set(k, (values.get(k) ?? 0) + 1)),
  };
}

const release = (id: number, releaseVersion: string, buildVersion: string, extra: Partial<ReleaseDocument> = {}) =>
  ({ _id: id, channelId: 1, bundleId: 'com.example', releaseVersion, buildVersion, versionKey: versionSortKey(releaseVersion, buildVersion), gitCommit: '', ...extra }) as ReleaseDocument;

describe('ChannelReleases', () => {
  // Newest upload first, as the repository returns them.
  const stored = [release(6, '1.9', '50'), release(5, '2.0', '1'), release(4, '1.10', '3', { bundleId: 'com.other' }), release(3, '1.10', '3', { gitCommit: 'abc' }), release(2, '1.2', '9'), release(1, '1.2', '9')];

  function reader() {
    const generations = generationsInMemory();
    const repository = { liveOfChannel: jest.fn(async () => stored), findById: jest.fn(async (id: number) => stored.find((r) => r._id === id) ?? null) };
    return { channel: new ChannelReleases(repository, generations, { maxDocuments: 100, maxAgeMs: 60_000 }), repository, generations };
  }

  it('when a page is asked for, then it is that slice of the newest uploads, with the total', async () => {
    const { channel } = reader();
    const page = await channel.page(1, 2, 2);
    expect(page.releases.map((r) => r._id)).toEqual([4, 3]);
    expect(page.total).toBe(6);
  });

  it('when newer releases are asked for, then versions compare segment by segment, newest version first, then newest upload', async () => {
    const { channel } = reader();
    const newer = await channel.newerThan(1, versionSortKey('1.9', '60'), undefined, 0, 25);
    // 2.0 (1) > 1.10 (3) > 1.9 (50): 1.10 is newer than 1.9, and 2.0 with build 1 beats 1.9 with build 50.
    expect(newer.releases.map((r) => r._id)).toEqual([5, 4, 3]);
    const ofBundle = await channel.newerThan(1, versionSortKey('1.9', '60'), 'com.example', 0, 25);
    expect(ofBundle.releases.map((r) => r._id)).toEqual([5, 3]);
    expect(ofBundle.total).toBe(2);
  });

  it('when an exact match is asked for, then the newest upload of it answers', async () => {
    const { channel } = reader();
    expect((await channel.findExact(1, { bundleId: 'com.example', releaseVersion: '1.2', buildVersion: '9' }))?._id).toBe(2);
    expect((await channel.findExact(1, { bundleId: 'com.example', gitCommit: 'abc' }))?._id).toBe(3);
    expect(await channel.findExact(1, { bundleId: 'com.example', releaseVersion: '3.0', buildVersion: '1' })).toBeNull();
  });

  it('when a release was created but its generation bump did not reach NATS, then by id it is still found, from the database', async () => {
    const generations = generationsInMemory();
    const rows = [release(1, '1.0', '1')];
    const repository = { liveOfChannel: jest.fn(async () => [...rows]), findById: jest.fn(async (id: number) => rows.find((r) => r._id === id) ?? null) };
    const channel = new ChannelReleases(repository, generations, { maxDocuments: 100, maxAgeMs: 60_000 });
    expect((await channel.byId(1))?._id).toBe(1);
    // Created, and no bump: the cached list (without it) still validates.
    rows.unshift(release(2, '1.1', '1'));
    expect((await channel.page(1, 0, 25)).releases.map((r) => r._id)).toEqual([1]);
    expect((await channel.byId(2))?._id).toBe(2);
    // An id the channel's list knows, then deleted from the database: the (validated) list answers; unknown ids: null.
    expect(await channel.byId(99)).toBeNull();
  });

  it('when the channel is unchanged, then its releases are read once; when it changes, then again', async () => {
    const { channel, repository, generations } = reader();
    await channel.page(1, 0, 25);
    await channel.findExact(1, { bundleId: 'com.example', gitCommit: 'abc' });
    expect(repository.liveOfChannel).toHaveBeenCalledTimes(1);
    await generations.bump(['releases.1']);
    await channel.page(1, 0, 25);
    expect(repository.liveOfChannel).toHaveBeenCalledTimes(2);
  });

  it('when a release is asked for by id, then it comes from its channel, and a deleted one is gone on the next ask', async () => {
    const { channel, repository, generations } = reader();
    expect((await channel.byId(3))?.gitCommit).toBe('abc');
    expect((await channel.byId(4))?.bundleId).toBe('com.other');
    expect(repository.liveOfChannel).toHaveBeenCalledTimes(1);
    // Deleted: gone from the channel's live list and from the live lookup by id alike.
    repository.liveOfChannel.mockResolvedValueOnce(stored.filter((r) => r._id !== 3));
    repository.findById.mockImplementation(async (id: number) => (id === 3 ? null : (stored.find((r) => r._id === id) ?? null)));
    await generations.bump(['releases.1']);
    expect(await channel.byId(3)).toBeNull();
    expect(await channel.byId(99)).toBeNull();
  });

  it('when strings hold characters past U+FFFF, then they order by their UTF-8 bytes, as MongoDB orders them', () => {
    // U+FF5E (3 UTF-8 bytes, one UTF-16 unit) against U+1F600 (4 bytes, a surrogate pair):
    // UTF-16 puts the emoji first, UTF-8 puts it last.
    expect('😀' < '～').toBe(true);
    expect(compareBytes('😀', '～')).toBeGreaterThan(0);
  });
});
