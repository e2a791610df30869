import { ServiceClient } from '@hangar/grpc';
import type { users } from '@hangar/proto';
import type { UserDirectory, UserSummary } from '../domain/deps';

/** Who a user id is, from the users service (GetUsersByIds has no permission check). */
export class UsersDirectory implements UserDirectory {
  constructor(private readonly client: ServiceClient<typeof users.UsersServiceDefinition>) {}

  async lookup(ids: number[]): Promise<Map<number, UserSummary>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const { users: found } = await this.client.getUsersByIds({ ids: unique });
    return new Map(found.map((u) => [u.id, { id: u.id, username: u.username, email: u.email }]));
  }
}
