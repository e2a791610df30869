import type { ApiClient } from './http-client';
import { uniqueName } from './test-infrastructure';

export interface TestUser {
  id: number;
  username: string;
  email: string;
  role: string;
  /** A personal access token of the user, made by the admin. */
  token: string;
  tokenId: number;
}

/**
 * A user with a global role and one access token, both made over HTTP by
 * the admin, as an end-to-end test's caller. Throws with the answer when
 * Hangar refuses, so a broken setup does not pass for a permission result.
 */
export async function createUserWithToken(api: ApiClient, adminToken: string, label: string, role = 'member'): Promise<TestUser> {
  const username = uniqueName(label).replace(/[^a-z0-9]/g, '');
  const email = `${username}@example.com`;
  const user = await api('POST', '/api/users', { token: adminToken, form: { username, email, password: 'long-enough-pw', role } });
  if (user.status !== 201) throw new Error(`creating user ${label} answered ${user.status}: ${user.text}`);
  let token = await api('POST', `/api/users/${user.body.id}/tokens`, { token: adminToken, form: { name: label } });
  // 503 is the contract's "try again" (a deadline passed on a loaded machine); a client retries
  // it. At worst the user holds a second, unused token.
  for (let attempt = 0; attempt < 3 && token.status === 503; attempt++) token = await api('POST', `/api/users/${user.body.id}/tokens`, { token: adminToken, form: { name: label } });
  if (token.status !== 201) throw new Error(`creating a token for ${label} answered ${token.status}: ${token.text}`);
  return { id: user.body.id, username, email, role: user.body.role, token: token.body.token, tokenId: token.body.id };
}
