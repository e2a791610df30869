import { Connection } from 'mongoose';
import { createLogger } from '@hangar/logger';
import { testInfrastructure, uniqueName } from '@hangar/testing';
import { claimTurn, connectMongo } from '../src';

const infra = testInfrastructure();
const logger = createLogger({ service: 'job-turns-test', level: 'silent' });

describe('claimTurn against a MongoDB-wire server', () => {
  const dbName = uniqueName('turns-test');
  let connection: Connection;
  let replica: Connection;

  beforeAll(async () => {
    connection = await connectMongo({ url: infra.mongoUrl, dbName, logger });
    // A second connection has its own pool: another replica of the service.
    replica = await connectMongo({ url: infra.mongoUrl, dbName, logger });
  });

  afterAll(async () => {
    await connection.dropDatabase();
    await Promise.all([connection.close(), replica.close()]);
  });

  it('when 20 claims of one turn race from two replicas, then exactly one gets it', async () => {
    const job = uniqueName('job');

    const won = await Promise.all(Array.from({ length: 20 }, (_, i) => claimTurn(i % 2 === 0 ? connection : replica, job, 1_000)));

    expect(won.filter(Boolean)).toHaveLength(1);
  });

  it('when turns follow each other, then each is claimed once, two jobs do not share turns, and old claims are cleared', async () => {
    const job = uniqueName('job');
    const other = uniqueName('other');

    for (const turn of [1, 2, 3, 4]) {
      expect(await claimTurn(connection, job, turn)).toBe(true);
      expect(await claimTurn(replica, job, turn)).toBe(false);
    }
    expect(await claimTurn(replica, other, 4)).toBe(true);

    const left = await connection.collection('job_turns').find({ job }).toArray();
    expect(left.map((t) => t.turn).sort()).toEqual([3, 4]);
  });
});
