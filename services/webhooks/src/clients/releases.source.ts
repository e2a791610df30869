import { NotFound } from '@hangar/errors';
import type { ServiceClient } from '@hangar/grpc';
import type { releases } from '@hangar/proto';
import type { ReleaseSource } from '../domain/deps';

export class ReleasesServiceSource implements ReleaseSource {
  constructor(private readonly client: ServiceClient<typeof releases.ReleasesServiceDefinition>) {}

  async release(id: number): Promise<releases.Release | undefined> {
    try {
      return await this.client.getRelease({ id });
    } catch (err) {
      if (err instanceof NotFound) return undefined;
      throw err; // releases unavailable: the event comes back later
    }
  }
}
