import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Schemas } from './api/client';

export type User = Schemas['User'];

export interface SessionState {
  user: User;
  signOut: () => Promise<void>;
  /** After the profile changed (name, appearance): the new user. */
  setUser: (user: User) => void;
}

export const SessionContext = createContext<SessionState | undefined>(undefined);

/** The signed-in user; pages are only rendered while one is. */
export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

export type AppRole = 'member' | 'developer' | 'admin';
const RANK: Record<AppRole, number> = { member: 1, developer: 2, admin: 3 };

/**
 * What the user may do on an app, as the gateway decides it (PRODUCT §2):
 * a global admin everything, others their collaborator role. Used only to hide
 * controls; the API refuses the call anyway.
 */
export function roleOn(user: User, app: { collaborators?: { id: number; role: string }[] }): AppRole | undefined {
  if (user.role === 'admin') return 'admin';
  const found = app.collaborators?.find((c) => c.id === user.id)?.role;
  return found === 'admin' || found === 'developer' || found === 'member' ? found : undefined;
}

export const atLeast = (role: AppRole | undefined, least: AppRole): boolean => role !== undefined && RANK[role] >= RANK[least];
