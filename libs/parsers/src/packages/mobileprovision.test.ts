import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readMobileProvision } from './mobileprovision';
import { fixturesDir } from '@hangar/testing';

const PROFILES = join(fixturesDir(), 'mobileprovisions');

async function profile(file: string) {
  const parsed = readMobileProvision(await readFile(join(PROFILES, file)));
  if (!parsed) throw new Error(`${file} did not parse`);
  return parsed;
}

describe('readMobileProvision', () => {
  it('when the profile lists devices and forbids debugging, then it is AdHoc with a device count', async () => {
    const parsed = await profile('ios_adhoc.mobileprovision');
    expect(parsed.releaseType).toBe('AdHoc');
    expect(parsed.summary['devicesCount']).toBeGreaterThan(0);
    expect(parsed.summary['expiresAt']).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('when the profile lists no devices and is not enterprise, then it is AppStore', async () => {
    expect((await profile('ios_appstore.mobileprovision')).releaseType).toBe('AppStore');
  });

  it('when a development profile lists devices, then Zealot-compatible precedence calls it AdHoc', async () => {
    const parsed = await profile('ios_development.mobileprovision');
    expect(parsed.releaseType).toBe('AdHoc');
    expect(parsed.summary['devicesCount']).toBeGreaterThan(0);
  });

  it('when the data holds no plist, then nothing is returned instead of a crash', () => {
    expect(readMobileProvision(Buffer.from('not a profile'))).toBeUndefined();
  });
});
