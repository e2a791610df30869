import { PermissionDenied } from '@hangar/errors';
import { AppAction, REQUIRED_ROLE, can, canCreateApp, hasAppRole, requireCan } from './permissions';

const actor = (role: string) => ({ userId: 7, role });

describe('app permissions (PRODUCT §2)', () => {
  // Expected outcome per action for: global admin (no membership), then a
  // global developer who is a member / developer / admin collaborator / none.
  const table: [AppAction, { admin: boolean; member: boolean; developer: boolean; appAdmin: boolean; none: boolean }][] = [
    ['app.read', { admin: true, member: true, developer: true, appAdmin: true, none: false }],
    ['collaborators.read', { admin: true, member: true, developer: true, appAdmin: true, none: false }],
    ['schemes.manage', { admin: true, member: false, developer: true, appAdmin: true, none: false }],
    ['channels.manage', { admin: true, member: false, developer: true, appAdmin: true, none: false }],
    ['releases.upload', { admin: true, member: false, developer: true, appAdmin: true, none: false }],
    ['releases.edit', { admin: true, member: false, developer: true, appAdmin: true, none: false }],
    ['debug_files.upload', { admin: true, member: false, developer: true, appAdmin: true, none: false }],
    ['app.rename', { admin: true, member: false, developer: false, appAdmin: true, none: false }],
    ['app.delete', { admin: true, member: false, developer: false, appAdmin: true, none: false }],
    ['collaborators.manage', { admin: true, member: false, developer: false, appAdmin: true, none: false }],
    ['webhooks.manage', { admin: true, member: false, developer: false, appAdmin: true, none: false }],
  ];

  it('when the table lists every action, then no action is left unchecked', () => {
    expect(table.map(([a]) => a).sort()).toEqual(Object.keys(REQUIRED_ROLE).sort());
  });

  it.each(table)('when %s is asked, then each kind of actor gets the expected answer', (action, expected) => {
    expect(can(actor('admin'), undefined, action)).toBe(expected.admin);
    for (const globalRole of ['developer', 'member']) {
      expect(can(actor(globalRole), 'member', action)).toBe(expected.member);
      expect(can(actor(globalRole), 'developer', action)).toBe(expected.developer);
      expect(can(actor(globalRole), 'admin', action)).toBe(expected.appAdmin);
      expect(can(actor(globalRole), undefined, action)).toBe(expected.none);
    }
  });

  it('when the membership holds an unknown role, then nothing is allowed', () => {
    expect(hasAppRole(actor('developer'), 'owner', 'member')).toBe(false);
  });

  it('when a global role creates an app, then admin and developer may and member may not', () => {
    expect(canCreateApp(actor('admin'))).toBe(true);
    expect(canCreateApp(actor('developer'))).toBe(true);
    expect(canCreateApp(actor('member'))).toBe(false);
  });

  it('when an action is denied, then requireCan throws PermissionDenied', () => {
    expect(() => requireCan(actor('member'), 'member', 'app.delete')).toThrow(PermissionDenied);
    expect(() => requireCan(actor('member'), 'admin', 'app.delete')).not.toThrow();
  });
});
