import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildCached } from './go-tools';
import { SetupError } from './setup-error';

describe('buildCached', () => {
  let dir: string;
  let savedPath: string | undefined;
  const withPath = (value: string) => (process.env.PATH = value);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-go-tools-'));
    savedPath = process.env.PATH;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A directory holding a `go` that answers `go version`, standing in for the toolchain. */
  function fakeGoDir(): string {
    const bin = path.join(dir, 'fake-go');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'go'), '#!/bin/sh\necho go version go1.24 fake\n', { mode: 0o755 });
    return bin;
  }
  const emptyDir = () => fs.mkdtempSync(path.join(dir, 'empty-'));
  const writeBinary = (binary: string) => fs.writeFileSync(binary, 'binary');

  it('when the binary and its stamp were built before, then it is used without Go on PATH and without building (so without network)', () => {
    withPath(fakeGoDir());
    const bin = path.join(dir, 'bin');
    buildCached(bin, 'tool', 'inputs v1', writeBinary, 'a test');
    withPath(emptyDir());
    const build = jest.fn();
    expect(buildCached(bin, 'tool', 'inputs v1', build, 'a test')).toBe(path.join(bin, 'tool'));
    expect(build).not.toHaveBeenCalled();
  });

  it('when the inputs changed, then it is built again', () => {
    withPath(fakeGoDir());
    const bin = path.join(dir, 'bin');
    buildCached(bin, 'tool', 'inputs v1', writeBinary, 'a test');
    const build = jest.fn(writeBinary);
    buildCached(bin, 'tool', 'inputs v2', build, 'a test');
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('when a build is needed and Go is missing, then a SetupError names Go, the tool, why it is needed and how to install Go', () => {
    withPath(emptyDir());
    const build = jest.fn();
    let thrown: unknown;
    try {
      buildCached(path.join(dir, 'bin'), 'ferretdb', 'inputs', build, 'the local MongoDB-wire server; or set MONGO_URL');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(SetupError);
    expect((thrown as Error).message).toMatch(/^Go is needed to build ferretdb \(the local MongoDB-wire server; or set MONGO_URL\)/);
    expect((thrown as Error).message).toMatch(/Install Go/);
    expect(build).not.toHaveBeenCalled();
  });

  it('when the Go build fails (e.g. the module proxy is unreachable), then a SetupError says so and writes no stamp', () => {
    withPath(fakeGoDir());
    const bin = path.join(dir, 'bin');
    const failing = () => {
      throw new Error('Command failed: go install example.com/tool@v1');
    };
    expect(() => buildCached(bin, 'versitygw', 'inputs', failing, 'the local S3 server; or set S3_ENDPOINT')).toThrow(SetupError);
    expect(() => buildCached(bin, 'versitygw', 'inputs', failing, 'the local S3 server; or set S3_ENDPOINT')).toThrow(/module proxy.*or set S3_ENDPOINT/s);
    expect(fs.existsSync(path.join(bin, 'versitygw.stamp'))).toBe(false);
  });
});
