import { usersServiceUnderTest } from './users-service-under-test';

/**
 * Single sign-on's side in the users service, through the real gRPC
 * client: a verified identity signs in the live user with that email or
 * creates one with the default role; with SSO only, a password signs in
 * global admins alone. Its queries go to the plan check like every suite's.
 */
describe('users service: sign-in by a verified identity', () => {
  const running = usersServiceUnderTest('users-identity');
  const { admin } = running;
  const ISSUER = 'https://idp.corp.test';
  const signInAs = (email: string, subject: string, issuer = ISSUER) =>
    running.client.signInWithIdentity({ email, preferredUsername: email.split('@')[0]!, defaultRole: 'member', userAgent: 'jest', issuer, subject });

  it('when an unknown email signs in, then a user is created with the default role and a session that authenticates; the next sign-in is the same user', async () => {
    const first = await running.client.signInWithIdentity({ email: 'New.Person@Corp.test', preferredUsername: 'new.person', defaultRole: 'developer', userAgent: 'jest', issuer: ISSUER, subject: 'subject-new-person' });
    expect(first.created).toBe(true);
    expect(first.signedIn!.user).toMatchObject({ email: 'new.person@corp.test', username: 'new.person', role: 'developer' });
    const session = await running.client.authenticateSession({ secret: first.signedIn!.secret });
    expect(session.user!.id).toBe(first.signedIn!.user!.id);

    const again = await running.client.signInWithIdentity({ email: 'new.person@corp.test', preferredUsername: 'new.person', defaultRole: 'admin', userAgent: 'jest', issuer: ISSUER, subject: 'subject-new-person' });
    expect({ created: again.created, id: again.signedIn!.user!.id, role: again.signedIn!.user!.role }).toEqual({ created: false, id: first.signedIn!.user!.id, role: 'developer' });
  });

  it('when the provider\'s username is taken by someone else, then the new user gets a numbered one', async () => {
    await running.client.createUser({ actor: admin, username: 'sam', email: 'sam@other.test', password: 'password-1234', role: 'member' });
    const signed = await signInAs('sam@corp.test', 'subject-sam');
    expect(signed.signedIn!.user).toMatchObject({ username: 'sam-2', email: 'sam@corp.test', role: 'member' });
  });

  it('when the person\'s email changes at the provider, then their subject still finds their account, and no second user is made', async () => {
    const first = await signInAs('lee@corp.test', 'subject-lee');
    const renamed = await signInAs('lee.kim@corp.test', 'subject-lee');
    expect({ created: renamed.created, id: renamed.signedIn!.user!.id, email: renamed.signedIn!.user!.email }).toEqual({
      created: false,
      id: first.signedIn!.user!.id,
      email: 'lee@corp.test',
    });
  });

  it('when another person at the same provider comes with the email of an account bound to someone else, then it is refused, and the bound person still signs in', async () => {
    const owner = await signInAs('desk@corp.test', 'subject-first-owner');
    await expect(signInAs('desk@corp.test', 'subject-new-owner')).rejects.toMatchObject({ code: 'permission_denied', message: expect.stringContaining('belongs to another person at the identity provider') });
    const again = await signInAs('desk@corp.test', 'subject-first-owner');
    expect(again.signedIn!.user!.id).toBe(owner.signedIn!.user!.id);
  });

  it('when an account made with a password signs in through the provider, then it is bound by email; a new provider (another issuer) binds it anew', async () => {
    const made = await running.client.createUser({ actor: admin, username: 'robin', email: 'robin@corp.test', password: 'password-1234', role: 'developer' });
    const first = await signInAs('robin@corp.test', 'subject-robin');
    expect({ created: first.created, id: first.signedIn!.user!.id, role: first.signedIn!.user!.role }).toEqual({ created: false, id: made.id, role: 'developer' });
    const moved = await signInAs('robin@corp.test', 'robin-at-the-new-provider', 'https://new-idp.corp.test');
    expect(moved.signedIn!.user!.id).toBe(made.id);
    // Now bound at the new provider: its subject finds the account whatever the email says.
    expect((await signInAs('robin.b@corp.test', 'robin-at-the-new-provider', 'https://new-idp.corp.test')).signedIn!.user!.id).toBe(made.id);
  });

  it('when passwords are for admins only, then a member\'s right password is refused and an admin\'s works', async () => {
    await running.client.createUser({ actor: admin, username: 'pat', email: 'pat@example.com', password: 'password-1234', role: 'member' });
    await expect(running.client.signIn({ email: 'pat@example.com', password: 'password-1234', userAgent: 'jest', adminsOnly: true })).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(running.client.signIn({ email: 'pat@example.com', password: 'wrong-password', userAgent: 'jest', adminsOnly: true })).rejects.toMatchObject({ code: 'unauthenticated' });
    expect((await running.client.signIn({ email: 'pat@example.com', password: 'password-1234', userAgent: 'jest' })).user!.email).toBe('pat@example.com');
    expect((await running.client.signIn({ email: 'root@example.com', password: 'bootstrap-pass-1', userAgent: 'jest', adminsOnly: true })).user!.role).toBe('admin');
  });
});
