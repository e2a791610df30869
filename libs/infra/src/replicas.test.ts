import { grpcTargetVariable, replicaName, replicasSetting } from './replicas';

describe('the launcher replicas setting', () => {
  it('when HANGAR_REPLICAS is unset, then one of each process starts', () => {
    expect(replicasSetting({})).toBe(1);
  });

  it('when HANGAR_REPLICAS is a number in range, then that many of each start', () => {
    expect(replicasSetting({ HANGAR_REPLICAS: '2' })).toBe(2);
  });

  it('when HANGAR_REPLICAS is not a whole number from 1 to 8, then the start stops with one clear message', () => {
    for (const bad of ['0', '-1', '1.5', 'two', '9']) {
      expect(() => replicasSetting({ HANGAR_REPLICAS: bad })).toThrow(/HANGAR_REPLICAS must be a whole number from 1 to 8/);
    }
  });

  it('when files are named per replica, then the first keeps the bare name and each service its target variable', () => {
    expect([0, 1, 2].map((i) => replicaName('debug-files', i))).toEqual(['debug-files', 'debug-files.1', 'debug-files.2']);
    expect(grpcTargetVariable('debug-files')).toBe('DEBUG_FILES_GRPC_TARGET');
    expect(grpcTargetVariable('users')).toBe('USERS_GRPC_TARGET');
  });
});
