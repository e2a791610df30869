import type { EventHandler } from '@hangar/events';
import type { CollaboratorsRepository } from '../data/collaborators.repository';

/** A deleted user collaborates on nothing. Safe to run twice: the second run finds nothing. */
export function userDeletedConsumer(collaborators: CollaboratorsRepository, onChanged: () => Promise<void>): EventHandler<'user.deleted'> {
  return {
    durable: 'apps',
    event: 'user.deleted',
    async handle(envelope) {
      const removed = await collaborators.removeAllOfUser(envelope.data.user_id);
      if (removed > 0) await onChanged();
      return removed > 0 ? 'done' : 'skipped';
    },
  };
}
