import type { releases } from '@hangar/proto';
import { appleDeviceList, deviceFit, devicesLeftOut, listedProfile } from './device-fit';

const LISTED = ['00008030-001A2C3E0E38802E', 'a'.repeat(40)];

function build(profile: Record<string, unknown> | null, platform = 'iOS'): Pick<releases.Release, 'platform' | 'metadataJson'> {
  const base = { type: 'ad_hoc', name: 'P', uuid: 'u', team: { id: 'T', name: 'Team' }, devicesCount: LISTED.length, devices: LISTED, devicesTruncated: false, provisionsAllDevices: false, expiresAt: '2099-01-01T00:00:00Z', createdAt: '2020-01-01T00:00:00Z', entitlements: {}, certificates: [] };
  return { platform, metadataJson: JSON.stringify(profile ? { signing: { profile: { ...base, ...profile }, certificates: [] } } : {}) };
}

describe('whether a build installs on a registered device', () => {
  it('when an ad hoc or development profile lists the UDID (in any case), then it is in; else out', () => {
    for (const type of ['ad_hoc', 'development']) {
      const profile = listedProfile(build({ type }))!;
      expect(deviceFit(profile, '00008030-001a2c3e0e38802e')).toBe('in');
      expect(deviceFit(profile, 'A'.repeat(40))).toBe('in');
      expect(deviceFit(profile, '00008030-0000000000000001')).toBe('out');
    }
  });

  it('when the kept list was cut short and lacks the UDID, then it cannot be told', () => {
    expect(deviceFit(listedProfile(build({ devicesTruncated: true, devicesCount: 500 }))!, '00008030-0000000000000001')).toBe('unknown');
  });

  it('when the build is enterprise, App Store, all-devices, not iOS or has no profile, then it does not restrict by device and leaves nobody out', () => {
    const device = [{ udid: '00008030-0000000000000001', name: 'x' }];
    for (const release of [build({ type: 'enterprise' }), build({ type: 'app_store', devices: [], devicesCount: 0 }), build({ provisionsAllDevices: true }), build({}, 'Android'), build(null)]) {
      expect(listedProfile(release)).toBeNull();
      expect(devicesLeftOut(listedProfile(release), device)).toEqual([]);
    }
    expect(devicesLeftOut(listedProfile(build({})), device)).toEqual(device);
  });

  it("when devices are left out, then Apple's list file has its header and one tab-separated line each, names flattened and cut to 50", () => {
    expect(appleDeviceList([{ udid: 'U1', name: "Jane's\tiPhone" }, { udid: 'U2', name: 'x'.repeat(70) }])).toBe(`Device ID\tDevice Name\tDevice Platform\nU1\tJane's iPhone\tios\nU2\t${'x'.repeat(50)}\tios\n`);
  });
});
