import type { K8sObject } from './kustomize';

/**
 * A small evaluator of Kubernetes NetworkPolicy semantics, enough for the
 * policies in deploy/k8s: pod and namespace selectors (matchLabels and
 * matchExpressions), peers with or without "from"/"to", numeric and named
 * ports, endPort, default policyTypes. ipBlock peers match endpoints outside
 * the cluster only when their CIDR is 0.0.0.0/0 (no addresses are modelled).
 */

export interface Endpoint {
  /** Pod labels; empty for something outside the cluster. */
  labels: Record<string, string>;
  /** The pod's namespace; undefined outside the cluster. */
  namespace?: string;
  /** Named container ports, for policies that name them. */
  namedPorts?: Record<string, number>;
}

interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

interface Peer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
  ipBlock?: { cidr: string; except?: string[] };
}

interface PortRule {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}

interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: PortRule[];
}

export function selects(selector: Selector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, key);
    if (operator === 'In' && !(has && values.includes(labels[key]!))) return false;
    if (operator === 'NotIn' && has && values.includes(labels[key]!)) return false;
    if (operator === 'Exists' && !has) return false;
    if (operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

const namespaceLabels = (namespace: string) => ({ 'kubernetes.io/metadata.name': namespace });

function peerMatches(peer: Peer, endpoint: Endpoint, policyNamespace: string): boolean {
  if (peer.ipBlock) return endpoint.namespace === undefined && peer.ipBlock.cidr === '0.0.0.0/0';
  if (endpoint.namespace === undefined) return false;
  if (peer.namespaceSelector) {
    return selects(peer.namespaceSelector, namespaceLabels(endpoint.namespace)) && selects(peer.podSelector, endpoint.labels);
  }
  return endpoint.namespace === policyNamespace && selects(peer.podSelector, endpoint.labels);
}

function portMatches(rule: PortRule, port: number, protocol: string, target: Endpoint): boolean {
  if ((rule.protocol ?? 'TCP') !== protocol) return false;
  if (rule.port === undefined) return true;
  const from = typeof rule.port === 'number' ? rule.port : target.namedPorts?.[rule.port];
  if (from === undefined) return false;
  return rule.endPort === undefined ? port === from : port >= from && port <= rule.endPort;
}

function ruleAllows(rule: Rule, peers: Peer[] | undefined, other: Endpoint, port: number, protocol: string, portOwner: Endpoint, ns: string) {
  const peerOk = !peers || peers.length === 0 || peers.some((p) => peerMatches(p, other, ns));
  const portOk = !rule.ports || rule.ports.length === 0 || rule.ports.some((r) => portMatches(r, port, protocol, portOwner));
  return peerOk && portOk;
}

function policyTypes(policy: K8sObject): string[] {
  return policy.spec.policyTypes ?? (policy.spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);
}

/** Whether a TCP/UDP connection from `source` to `target` on `port` gets through every policy in `objects`. */
export function connectionAllowed(objects: K8sObject[], source: Endpoint, target: Endpoint, port: number, protocol = 'TCP'): boolean {
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const applying = (endpoint: Endpoint, type: string) =>
    policies.filter(
      (p) => endpoint.namespace !== undefined && (p.metadata.namespace ?? '') === endpoint.namespace && policyTypes(p).includes(type) && selects(p.spec.podSelector, endpoint.labels),
    );

  const egress = applying(source, 'Egress');
  const egressOk =
    egress.length === 0 ||
    egress.some((p) => ((p.spec.egress ?? []) as Rule[]).some((r) => ruleAllows(r, r.to, target, port, protocol, target, p.metadata.namespace ?? '')));
  const ingress = applying(target, 'Ingress');
  const ingressOk =
    ingress.length === 0 ||
    ingress.some((p) => ((p.spec.ingress ?? []) as Rule[]).some((r) => ruleAllows(r, r.from, source, port, protocol, target, p.metadata.namespace ?? '')));
  return egressOk && ingressOk;
}
