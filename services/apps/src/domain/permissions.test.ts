import { PermissionDenied } from '@hangar/errors';
import { AppAction, REQUIRED_ROLE, can, canCreateApp, hasAppRole, requireCan, requireCanCreateApp, requireTokenReaches, withinTokenApps } from './permissions';

const actor = (role: string) => ({ userId: 7, role, appIds: [] as number[] });

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
    ['debug_files.manage', { admin: true, member: false, developer: true, appAdmin: true, none: false }],
    ['releases.read', { admin: true, member: true, developer: true, appAdmin: true, none: false }],
    ['debug_files.read', { admin: true, member: true, developer: true, appAdmin: true, none: false }],
    ['audit.read', { admin: true, member: false, developer: false, appAdmin: true, none: false }],
    ['app.rename', { admin: true, member: false, developer: false, appAdmin: true, none: false }],
    ['app.delete', { admin: true, member: false, developer: false, appAdmin: true, none: false }],
    ['collaborators.manage', { admin: true, member: false, developer: false, appAdmin: true, none: false }],
    ['webhooks.manage', { admin: true, member: false, developer: false, appAdmin: true, none: false }],
    ['testers.manage', { admin: true, member: false, developer: false, appAdmin: true, none: false }],
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

  describe('tokens limited to some apps', () => {
    const limited = (role: string, appIds: number[]) => ({ userId: 7, role, appIds });

    it('when a token is limited to other apps, then even a global admin is refused on this one', () => {
      expect(() => requireTokenReaches(limited('admin', [2, 3]), 1)).toThrow(/limited to other apps/);
      expect(() => requireTokenReaches(limited('admin', [2, 3]), 3)).not.toThrow();
      expect(() => requireTokenReaches(limited('member', []), 1)).not.toThrow();
    });

    it('when a limited token lists apps, then only its apps among the caller\'s are listed', () => {
      expect(withinTokenApps(limited('developer', [2, 9]), [1, 2, 3])).toEqual([2]);
      expect(withinTokenApps(limited('admin', [2, 9]), undefined)).toEqual([2, 9]);
      expect(withinTokenApps(limited('developer', []), [1, 2])).toEqual([1, 2]);
    });

    it('when a limited token would create an app, then it is refused', () => {
      expect(() => requireCanCreateApp(limited('admin', [2]))).toThrow(PermissionDenied);
      expect(() => requireCanCreateApp(limited('admin', []))).not.toThrow();
    });
  });
});
