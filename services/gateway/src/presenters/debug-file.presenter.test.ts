import type { debugFiles } from '@hangar/proto';
import { presentDebugFile, presentDebugFileMetadata } from './debug-file.presenter';

const at = Date.UTC(2026, 10, 22, 10, 4, 5, 123);

const row = (over: Partial<debugFiles.DebugFileMetadata> = {}): debugFiles.DebugFileMetadata => ({
  id: 7,
  debugFileId: 3,
  uuid: '17f58291-dd25-3fc8-9417-ccbe8163d33e',
  type: 'arm64',
  object: 'iOS',
  dataJson: '{"dsym":"iOS.app.dSYM","cpu_type":16777228}',
  size: 866911,
  createdAtMs: at,
  updatedAtMs: at,
  ...over,
});

describe('debug file presentation', () => {
  it('when a metadata row is presented, then it has exactly Shape B with data as an object', () => {
    expect(presentDebugFileMetadata(row())).toEqual({
      id: 7,
      debug_file_id: 3,
      uuid: '17f58291-dd25-3fc8-9417-ccbe8163d33e',
      type: 'arm64',
      object: 'iOS',
      data: { dsym: 'iOS.app.dSYM', cpu_type: 16777228 },
      size: 866911,
      created_at: '2026-11-22T10:04:05.123+00:00',
      updated_at: '2026-11-22T10:04:05.123+00:00',
    });
  });

  it('when the stored data is not a JSON object, then data is an empty object', () => {
    expect(presentDebugFileMetadata(row({ dataJson: '[1]' })).data).toEqual({});
    expect(presentDebugFileMetadata(row({ dataJson: '{broken' })).data).toEqual({});
    expect(presentDebugFileMetadata(row({ dataJson: '' })).data).toEqual({});
  });

  it("when a debug file is presented for a caller in Shanghai, then it has the seed's fields, a file_url with the key, and local timestamps", () => {
    const file: debugFiles.DebugFile = {
      id: 3,
      appId: 1,
      channelId: 2,
      appName: 'Demo',
      deviceType: 'ios',
      kind: 'dsym',
      fileName: 'Demo.dSYM.zip',
      releaseVersion: '1.0',
      buildVersion: '2',
      bundleId: 'com.icyleaf.iOS',
      size: 670429,
      checksum: 'ab',
      metadata: [row(), row({ id: 8, type: 'armv7' })],
      createdAtMs: at,
      updatedAtMs: at + 1000,
    };
    const body = presentDebugFile(file, [], 'https://hangar.example', 'key with/slash', 'Asia/Shanghai');
    expect(Object.keys(body)).toEqual(['id', 'kind', 'app_name', 'device_type', 'release_version', 'build_version', 'file_url', 'metadata', 'releases', 'created_at', 'updated_at']);
    expect(body.file_url).toBe('https://hangar.example/api/debug_files/3/download?channel_key=key%20with%2Fslash');
    expect(body.metadata.map((m) => [m.id, m.type])).toEqual([[7, 'arm64'], [8, 'armv7']]);
    expect(body.created_at).toBe('2026-11-22T18:04:05.123+08:00');
    expect(body.updated_at).toBe('2026-11-22T18:04:06.123+08:00');
  });

  it('when the releases of its build could not be fetched (the releases service down), then `releases` is left out rather than claimed empty', () => {
    const file = { id: 3, appId: 1, channelId: 2, appName: 'D', deviceType: 'ios', kind: 'dsym', fileName: 'x', releaseVersion: '1', buildVersion: '2', bundleId: '', size: 1, checksum: '', metadata: [], createdAtMs: at, updatedAtMs: at };
    expect(presentDebugFile(file, undefined, '', 'k')).not.toHaveProperty('releases');
    expect(presentDebugFile(file, [], '', 'k').releases).toEqual([]);
  });
});
