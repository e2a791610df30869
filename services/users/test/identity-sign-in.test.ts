import { usersServiceUnderTest } from './users-service-under-test';

/**
 * Single sign-on's side in the users service (issue 16), through the real gRPC
 * client: a verified identity signs in the live user with that email or
 * creates one with the default role; with SSO only, a password signs in
 * global admins alone. Its queries go to the plan check like every suite's.
 */
describe('users service: sign-in by a verified identity', () => {
  const running = usersServiceUnderTest('users-identity');
  const { admin } = running;

  it('when an unknown email signs in, then a user is created with the default role and a session that authenticates; the next sign-in is the same user', async () => {
    const first = await running.client.signInWithIdentity({ email: 'New.Person@Corp.test', preferredUsername: 'new.person', defaultRole: 'developer', userAgent: 'jest' });
    expect(first.created).toBe(true);
    expect(first.signedIn!.user).toMatchObject({ email: 'new.person@corp.test', username: 'new.person', role: 'developer' });
    const session = await running.client.authenticateSession({ secret: first.signedIn!.secret });
    expect(session.user!.id).toBe(first.signedIn!.user!.id);

    const again = await running.client.signInWithIdentity({ email: 'new.person@corp.test', preferredUsername: 'new.person', defaultRole: 'admin', userAgent: 'jest' });
    expect({ created: again.created, id: again.signedIn!.user!.id, role: again.signedIn!.user!.role }).toEqual({ created: false, id: first.signedIn!.user!.id, role: 'developer' });
  });

  it('when the provider\'s username is taken by someone else, then the new user gets a numbered one', async () => {
    await running.client.createUser({ actor: admin, username: 'sam', email: 'sam@other.test', password: 'password-1234', role: 'member' });
    const signed = await running.client.signInWithIdentity({ email: 'sam@corp.test', preferredUsername: 'sam', defaultRole: 'member', userAgent: 'jest' });
    expect(signed.signedIn!.user).toMatchObject({ username: 'sam-2', email: 'sam@corp.test', role: 'member' });
  });

  it('when passwords are for admins only, then a member\'s right password is refused and an admin\'s works', async () => {
    await running.client.createUser({ actor: admin, username: 'pat', email: 'pat@example.com', password: 'password-1234', role: 'member' });
    await expect(running.client.signIn({ email: 'pat@example.com', password: 'password-1234', userAgent: 'jest', adminsOnly: true })).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(running.client.signIn({ email: 'pat@example.com', password: 'wrong-password', userAgent: 'jest', adminsOnly: true })).rejects.toMatchObject({ code: 'unauthenticated' });
    expect((await running.client.signIn({ email: 'pat@example.com', password: 'password-1234', userAgent: 'jest' })).user!.email).toBe('pat@example.com');
    expect((await running.client.signIn({ email: 'root@example.com', password: 'bootstrap-pass-1', userAgent: 'jest', adminsOnly: true })).user!.role).toBe('admin');
  });
});
