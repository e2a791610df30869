import type { AuditEntriesRepository } from '../data/audit-entries.repository';
import type { SessionsRepository } from '../data/sessions.repository';
import type { TokensRepository } from '../data/tokens.repository';
import type { UsersRepository } from '../data/users.repository';

/** What the users service's use cases are handed (users-service.ts builds it). */
export interface UsersDeps {
  users: UsersRepository;
  tokens: TokensRepository;
  audit: AuditEntriesRepository;
  sessions: SessionsRepository;
  /** How long a console session lives after sign-in. */
  sessionTtlMs: number;
  /** Called after a write that recorded events, so they go out at once. */
  onEventsRecorded: () => void;
}
