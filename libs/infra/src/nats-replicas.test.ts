import { natsReplicasSetting } from './nats-replicas';

describe('NATS_REPLICAS under npm run up', () => {
  it('when unset or 1, then the one local nats-server serves', () => {
    expect(natsReplicasSetting({})).toBe(1);
    expect(natsReplicasSetting({ NATS_REPLICAS: '1' })).toBe(1);
  });

  it('when above 1 with NATS_URL naming a cluster, then it is passed on', () => {
    expect(natsReplicasSetting({ NATS_REPLICAS: '3', NATS_URL: 'nats://a:4222,nats://b:4222,nats://c:4222' })).toBe(3);
  });

  it('when above 1 without NATS_URL, then the start is refused: the nats-server started here is one node', () => {
    expect(() => natsReplicasSetting({ NATS_REPLICAS: '3' })).toThrow(/NATS_REPLICAS=3 needs a NATS cluster.*set NATS_URL/);
  });

  it('when not a whole number from 1 to 5, then the start is refused', () => {
    for (const raw of ['0', '6', 'three', '2.5']) expect(() => natsReplicasSetting({ NATS_REPLICAS: raw, NATS_URL: 'nats://a:4222' })).toThrow(/from 1 to 5/);
  });
});
