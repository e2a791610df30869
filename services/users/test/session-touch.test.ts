import { usersServiceUnderTest } from './users-service-under-test';

/**
 * A console session's last-used time (shown in the session list) moves at most once a minute:
 * the write is skipped while the recorded time is recent, so this is the one place it runs.
 * Its queries go to the plan check like every suite's.
 */
describe('users service: a session used again', () => {
  const running = usersServiceUnderTest('users-touch');
  const { admin } = running;

  it('when a session last used over a minute ago authenticates, then its last-used time moves to now', async () => {
    const user = await running.client.createUser({ actor: admin, username: 'touched', email: 'touched@example.com', password: 'password-1234', role: 'member' });
    const signed = await running.client.signIn({ email: user.email, password: 'password-1234', userAgent: 'jest' });
    const actor = { userId: user.id, role: user.role };
    const longAgo = new Date(Date.now() - 10 * 60_000);
    await running.service.connection.collection('sessions').updateOne({ _id: signed.session!.id as never }, { $set: { lastUsedAt: longAgo } });
    await running.client.authenticateSession({ secret: signed.secret });
    // The touch is written after the answer: wait for it.
    let lastUsed = 0;
    for (let i = 0; i < 50 && lastUsed <= longAgo.getTime(); i++) {
      await new Promise((r) => setTimeout(r, 50));
      lastUsed = (await running.client.listSessions({ actor })).sessions[0]!.lastUsedAtMs;
    }
    expect(lastUsed).toBeGreaterThan(Date.now() - 60_000);
  });
});
