import { auditEntryOf } from './audit-entry';

describe('auditEntryOf', () => {
  const write = {
    at: 1_700_000_000_000,
    operationId: 'createWebhook',
    method: 'POST',
    path: '/api/apps/4/webhooks',
    params: { app_id: '4' },
    address: '192.0.2.1',
    requestId: 'r-1',
    status: 201,
    answer: undefined,
  };

  it('when a body holds passwords, tokens or secrets, then their values never reach the entry', () => {
    const entry = auditEntryOf({ ...write, userId: 3, tokenId: 8, body: { url: 'https://ci.example.com/hook', secret: 's3cr3t', password: 'pw', token: 'hgr_x', new_password: 'pw2' } });
    expect(entry.fields).toEqual([
      { name: 'url', value: 'https://ci.example.com/hook' },
      { name: 'secret', value: '[redacted]' },
      { name: 'password', value: '[redacted]' },
      { name: 'token', value: '[redacted]' },
      { name: 'new_password', value: '[redacted]' },
    ]);
    expect(JSON.stringify(entry)).not.toMatch(/s3cr3t|hgr_x|"pw2?"/);
    expect(entry).toMatchObject({ user_id: 3, token_id: 8, app_id: 4, resource_ids: { app_id: '4' }, status: 201 });
  });

  it('when nobody was authenticated and the app is only in the answer, then user and token are null and the app is taken from the answer', () => {
    const entry = auditEntryOf({ ...write, path: '/api/schemes/2/channels', params: { scheme_id: '2' }, body: { name: 'x'.repeat(1000) }, answer: { app_id: 9 } });
    expect(entry).toMatchObject({ user_id: null, token_id: null, app_id: 9 });
    expect(entry.fields[0]!.value.length).toBeLessThanOrEqual(300);
  });

  it('when a body field is nested 20,000 deep, then the entry is made (its value cut) instead of JSON.stringify overflowing the stack', () => {
    const body = JSON.parse(`{"name":${'['.repeat(20_000)}${']'.repeat(20_000)},"password":[["pw"]]}`);
    const entry = auditEntryOf({ ...write, body, status: 422 });
    expect(entry.fields).toEqual([
      { name: 'name', value: '[[[["[…]"]]]]' },
      { name: 'password', value: '[redacted]' },
    ]);
  });
});
