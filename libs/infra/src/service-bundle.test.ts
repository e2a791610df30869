import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUNDLE_FILE, BUNDLE_INPUTS_FILE, currentBundle } from './service-bundle';

describe('a service run from its one-file bundle', () => {
  let dist: string;
  let entry: string;
  const at = (file: string, secondsAgo: number) => {
    const when = new Date(Date.now() - secondsAgo * 1000);
    fs.utimesSync(file, when, when);
  };

  beforeEach(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-bundle-'));
    entry = path.join(dist, 'main.js');
    fs.writeFileSync(entry, '');
    fs.mkdirSync(path.join(dist, 'lib'));
    fs.writeFileSync(path.join(dist, 'lib', 'a.js'), '');
    fs.writeFileSync(path.join(dist, BUNDLE_INPUTS_FILE), JSON.stringify(['main.js', 'lib/a.js']));
    fs.writeFileSync(path.join(dist, BUNDLE_FILE), '');
    at(entry, 60);
    at(path.join(dist, 'lib', 'a.js'), 60);
    at(path.join(dist, BUNDLE_FILE), 30);
  });
  afterEach(() => fs.rmSync(dist, { recursive: true, force: true }));

  it('when it was made after every file it was made of, then it is run', () => {
    expect(currentBundle(entry, {})).toBe(path.join(dist, BUNDLE_FILE));
  });

  it('when a file it was made of changed since (a tsc -b after the last npm run build), then dist/main.js is run', () => {
    at(path.join(dist, 'lib', 'a.js'), 10);
    expect(currentBundle(entry, {})).toBeUndefined();
  });

  it('when a file it was made of is gone, or its list of inputs is missing, empty or not a list, then dist/main.js is run', () => {
    fs.rmSync(path.join(dist, 'lib', 'a.js'));
    expect(currentBundle(entry, {})).toBeUndefined();
    for (const inputs of [undefined, '[]', '{"main.js":1}', 'not json']) {
      if (inputs === undefined) fs.rmSync(path.join(dist, BUNDLE_INPUTS_FILE), { force: true });
      else fs.writeFileSync(path.join(dist, BUNDLE_INPUTS_FILE), inputs);
      expect(currentBundle(entry, {})).toBeUndefined();
    }
  });

  it('when queries are recorded for the plan check, then the bundle is still run: the query log reads its frames (libs/mongo bundle-frames)', () => {
    expect(currentBundle(entry, { HANGAR_QUERY_LOG_DIR: '/tmp/queries' })).toBe(path.join(dist, BUNDLE_FILE));
  });

  it('when there is no bundle, or HANGAR_SERVICE_BUNDLES=0, then dist/main.js is run', () => {
    expect(currentBundle(entry, { HANGAR_SERVICE_BUNDLES: '0' })).toBeUndefined();
    fs.rmSync(path.join(dist, BUNDLE_FILE));
    expect(currentBundle(entry, {})).toBeUndefined();
  });
});
