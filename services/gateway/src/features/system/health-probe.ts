import { DEPENDENCIES, Dependency } from '@hangar/grpc';
import type { ServiceClients } from '../../clients/service-clients';

/** Probes ask often (every replica's readiness, load balancers, monitors): one answer serves them all for this long. */
export const HEALTH_CACHE_MS = 1_000;

export type HealthBody = { healthy: boolean; services: Record<string, boolean>; checks: Record<Dependency, 'ok' | 'unavailable'> };

/** `GET /api/health`'s answer: every service asked at most once a second, whoever asks. */
export class HealthProbe {
  private cached: { at: number; body: Promise<HealthBody> } | undefined;

  constructor(private readonly clients: ServiceClients) {}

  answer(): Promise<HealthBody> {
    if (!this.cached || Date.now() - this.cached.at > HEALTH_CACHE_MS) this.cached = { at: Date.now(), body: this.ask() };
    return this.cached.body;
  }

  private async ask(): Promise<HealthBody> {
    const { services, dependencies } = await this.clients.health();
    // A dependency is ok when every service that uses it reaches it; unavailable when one does not,
    // or when no service could be asked about it.
    const checks = Object.fromEntries(
      DEPENDENCIES.map((dependency) => {
        const seen = dependencies.map((reported) => reported[dependency]).filter((ok) => ok !== undefined);
        return [dependency, seen.length > 0 && seen.every(Boolean) ? 'ok' : 'unavailable'];
      }),
    ) as HealthBody['checks'];
    const healthy = Object.values(services).every(Boolean) && Object.values(checks).every((state) => state === 'ok');
    return { healthy, services, checks };
  }
}
