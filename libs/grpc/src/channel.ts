import { Channel, createChannel } from 'nice-grpc';

/**
 * A channel to a service that spreads calls over every replica, round_robin:
 * grpc-js's default (pick_first) would pin each caller to one. The target is
 * either one name — with a Kubernetes headless Service (clusterIP: None) it
 * resolves to each pod — or a comma-separated list of IPv4 addresses, one per
 * replica (`npm run up` with `HANGAR_REPLICAS`), which grpc-js's `ipv4:`
 * resolver takes as they are. round_robin only picks connected replicas, so
 * calls go past a dead one to the others while it reconnects. Keepalive
 * notices a peer that vanished (node gone) without waiting for TCP timeouts.
 */
export function createServiceChannel(target: string): Channel {
  return createChannel(channelAddress(target), undefined, {
    'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 10_000,
    'grpc.keepalive_permit_without_calls': 1,
    // A replica (or a whole service) that died and came back takes calls again within
    // two seconds: grpc-js's own backoff grows to two minutes between reconnects, during
    // which a caller whose every replica was down answered 503 though the service was up.
    'grpc.initial_reconnect_backoff_ms': 500,
    'grpc.max_reconnect_backoff_ms': 2_000,
  });
}

/** The grpc-js target URI of a configured target (see `grpcTarget` in libs/config). */
export function channelAddress(target: string): string {
  if (/^[a-z0-9]+:\/\//.test(target) || /^(dns|ipv4|ipv6|unix):/.test(target)) return target;
  if (target.includes(',')) return `ipv4:${target}`;
  return `dns:///${target}`;
}

/**
 * A channel for one probe of one address, closed by its caller. Its own subchannel:
 * grpc-js shares subchannels between channels of the same address and options, so a
 * probe repeated while the service starts would inherit the refused attempt's
 * reconnect backoff (500 ms growing to 2 s) and see the service only that much
 * after it listens — seen as 1.2 s of every `npm run up` and test start.
 */
export function createProbeChannel(target: string): Channel {
  return createChannel(channelAddress(target), undefined, { 'grpc.use_local_subchannel_pool': 1 });
}
