import { connect } from '@nats-io/transport-node';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { openGenerations } from '../src/generations';

describe('generations in NATS KV', () => {
  it('when a key is bumped on one connection, then another connection reads the new generation at once', async () => {
    const { natsUrl } = testInfrastructure();
    const prefix = uniqueName('gen');
    const [writerConn, readerConn] = await Promise.all([connect({ servers: natsUrl }), connect({ servers: natsUrl })]);
    try {
      const writer = await openGenerations(writerConn, prefix);
      const reader = await openGenerations(readerConn, prefix);
      expect(await reader.read(['users', 'releases.7'])).toEqual([0, 0]);
      for (let i = 0; i < 20; i++) {
        const [before] = await reader.read(['releases.7']);
        await writer.bump(['releases.7']);
        const [after] = await reader.read(['releases.7']);
        expect(after).toBeGreaterThan(before!);
      }
      expect(await reader.read(['users'])).toEqual([0]);
    } finally {
      await Promise.all([writerConn.close(), readerConn.close()]);
    }
  });
});
