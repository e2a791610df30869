// Validates Kubernetes objects offline against the API schemas of npm's
// kubernetes-models (built-in kinds), @kubernetes-models/keda (ScaledObject)
// and @kubernetes-models/prometheus-operator (PrometheusRule). An ES module
// run as its own process: those packages ship ES modules only, and jest here
// runs CommonJS. Reads a JSON array of objects on stdin; writes one
// {kind, name, error} per object (error null when valid).
import { readFileSync } from 'node:fs';

const MODULES = {
  v1: 'kubernetes-models/v1',
  'keda.sh/v1alpha1': '@kubernetes-models/keda/keda.sh/v1alpha1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
};
// Built-in groups: kubernetes-models/<group>/<version>.
const moduleOf = (apiVersion) => MODULES[apiVersion] ?? (apiVersion.includes('.k8s.io/') || /^(apps|autoscaling|batch|policy)\//.test(apiVersion) ? `kubernetes-models/${apiVersion}` : undefined);

const objects = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const object of objects) {
  const result = { kind: object.kind, name: object.metadata?.name, error: null };
  const specifier = moduleOf(String(object.apiVersion));
  try {
    if (!specifier) throw new Error(`no schema known for apiVersion ${object.apiVersion}`);
    const Model = (await import(specifier))[object.kind];
    if (typeof Model !== 'function') throw new Error(`${specifier} has no kind ${object.kind}`);
    new Model(object).validate();
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
  }
  results.push(result);
}
process.stdout.write(JSON.stringify(results));
