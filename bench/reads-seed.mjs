// Grows the data of bench/reads.bench.mjs from one scale to the next.
//
// The queried app keeps one scheme and one channel with RELEASES_PER_CHANNEL
// releases at every scale, so its answers are the same size at 10k and at 1M
// releases: only the collections around it grow. The other channels belong to
// other apps (CHANNELS_PER_APP each), each with the same number of releases.
// Both are written straight into the collections, copied from the records
// the real upload made; ids start far above any the services hand out.

export const RELEASES_PER_CHANNEL = 100;
const CHANNELS_PER_APP = 5;
const FIRST_ID = 10_000_000;
const BATCH = 1_000;

export function createSeeder({ appsDb, releasesDb, seedChannelSlug, versionSortKey, progress }) {
  const channels = appsDb.collection('channels');
  const releases = releasesDb.collection('releases');
  let channelTemplate;
  let releaseTemplate;
  let extraChannels = 0; // channels 1.. (channel 0 is the seeded, queried one)
  let releaseCount = 0;

  const appOf = (channelId) => FIRST_ID + Math.floor((channelId - FIRST_ID) / CHANNELS_PER_APP);

  async function addChannels(upTo) {
    while (extraChannels < upTo) {
      const batch = [];
      for (; batch.length < BATCH && extraChannels < upTo; extraChannels++) {
        const id = FIRST_ID + extraChannels + 1;
        batch.push({ ...channelTemplate, _id: id, appId: appOf(id), schemeId: appOf(id), name: `bench ${id}`, slug: `bench${id}`, ensureKey: `id:${id}` });
      }
      await channels.insertMany(batch, { ordered: false });
    }
  }

  /** The release for global index i: channel i / RELEASES_PER_CHANNEL, in order. */
  function release(i) {
    const channelIndex = Math.floor(i / RELEASES_PER_CHANNEL);
    const queried = channelIndex === 0;
    const channelId = queried ? channelTemplate._id : FIRST_ID + channelIndex;
    const releaseVersion = `1.${i % 50}`;
    const buildVersion = String(i);
    return {
      ...releaseTemplate,
      _id: FIRST_ID + i,
      version: 100 + i,
      appId: queried ? releaseTemplate.appId : appOf(channelId),
      schemeId: queried ? releaseTemplate.schemeId : appOf(channelId),
      channelId,
      releaseVersion,
      buildVersion,
      versionKey: versionSortKey(releaseVersion, buildVersion),
      outbox: [],
      outboxPending: false,
    };
  }

  return {
    get queriedChannelId() {
      return channelTemplate._id;
    },
    /** Adds channels and releases until there are `total` releases; returns seconds spent. */
    async growTo(total) {
      const started = Date.now();
      channelTemplate ??= await channels.findOne({ slug: seedChannelSlug });
      releaseTemplate ??= await releases.findOne({});
      await addChannels(Math.ceil(total / RELEASES_PER_CHANNEL) - 1);
      while (releaseCount < total) {
        const batch = [];
        for (; batch.length < BATCH && releaseCount < total; releaseCount++) batch.push(release(releaseCount));
        await releases.insertMany(batch, { ordered: false });
        if (releaseCount % 100_000 === 0) progress(`${releaseCount} releases, ${((Date.now() - started) / 1000).toFixed(0)} s`);
      }
      return (Date.now() - started) / 1000;
    },
    get channelCount() {
      return extraChannels + 1;
    },
    /**
     * One more channel, of the queried app's scheme, holding `count` releases
     * (the versions page of a long-lived nightly channel); returns its key.
     */
    bigChannelId: undefined,
    async bigChannel(count) {
      const id = FIRST_ID - 1;
      this.bigChannelId = id;
      const slug = `bench-big-${count}`;
      await channels.insertOne({ ...channelTemplate, _id: id, name: `big ${count}`, slug, ensureKey: `id:${id}` });
      for (let done = 0; done < count; ) {
        const batch = [];
        for (; batch.length < BATCH && done < count; done++) {
          const releaseVersion = `2.${done % 50}`;
          const buildVersion = String(done);
          batch.push({ ...releaseTemplate, _id: FIRST_ID - 1_000_000 + done, version: done + 1, channelId: id, releaseVersion, buildVersion, versionKey: versionSortKey(releaseVersion, buildVersion), outbox: [], outboxPending: false });
        }
        await releases.insertMany(batch, { ordered: false });
      }
      return slug;
    },
  };
}
