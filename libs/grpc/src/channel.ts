import { Channel, createChannel } from 'nice-grpc';

/**
 * A channel to a service that spreads calls over every address its name
 * resolves to. With a Kubernetes headless Service (clusterIP: None) the name
 * resolves to each pod, so round_robin balances per call; grpc-js's default
 * (pick_first) would pin each gateway to one pod. Keepalive notices a peer
 * that vanished (node gone) without waiting for TCP timeouts.
 */
export function createServiceChannel(target: string): Channel {
  const address = /^[a-z]+:\/\//.test(target) || target.startsWith('dns:') ? target : `dns:///${target}`;
  return createChannel(address, undefined, {
    'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 10_000,
    'grpc.keepalive_permit_without_calls': 1,
  });
}
