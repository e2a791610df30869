import { Command } from 'commander';
import { inCommandTerms } from './command-terms';

describe('inCommandTerms', () => {
  const upload = new Command('upload')
    .option('-c, --channel-key <key>', 'channel')
    .option('--release-version <version>', 'version')
    .option('--build-version <build>', 'build')
    .option('--name <name>', 'name');

  it("when the server's message names API fields the command has flags for, then it names the flags", () => {
    const api =
      'file is not a package Hangar can read (no known signature). Readable: ipa, apk; upload it into an existing channel (channel_key) with release_version and build_version to store it anyway';
    expect(inCommandTerms(api, upload)).toBe(
      'file is not a package Hangar can read (no known signature). Readable: ipa, apk; upload it into an existing channel (--channel-key) with --release-version and --build-version to store it anyway',
    );
  });

  it('when a name is a plain word, part of another name, or a field the command has no flag for, then it is left alone', () => {
    expect(inCommandTerms('name is taken; bundle_id differs; my_release_version and release_versions stay', upload)).toBe('name is taken; bundle_id differs; my_release_version and release_versions stay');
    expect(inCommandTerms('release_version is required', undefined)).toBe('release_version is required');
  });
});
