import { execFileSync } from 'node:child_process';
import { readDsymBundleInfo } from './info-plist.reader';

const PLIST = `<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
  <key>CFBundleIdentifier</key><string>com.apple.xcode.dsym.com.example.App</string>
  <key>CFBundleShortVersionString</key><string> 2.1 </string>
  <key>CFBundleVersion</key><integer>42</integer>
</dict></plist>`;

describe('dSYM Info.plist', () => {
  it('when the XML starts with a byte order mark and pads a version, then the app identity is read as dsymutil meant it', () => {
    expect(readDsymBundleInfo(Buffer.from(`\uFEFF${PLIST}`))).toEqual({ bundleId: 'com.example.App', releaseVersion: '2.1', buildVersion: '42' });
  });

  it('when the plist is binary, then it is read like the XML one', () => {
    const script = 'import plistlib,sys; sys.stdout.buffer.write(plistlib.dumps({"CFBundleIdentifier": "com.apple.xcode.dsym.com.example.App", "CFBundleVersion": "7"}, fmt=plistlib.FMT_BINARY))';
    expect(readDsymBundleInfo(execFileSync('python3', ['-c', script]))).toEqual({ bundleId: 'com.example.App', buildVersion: '7' });
  });

  it('when the plist is malformed or not a dictionary, then it says nothing rather than failing the upload', () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(readDsymBundleInfo(Buffer.from(PLIST.slice(0, 120)))).toEqual({});
    expect(readDsymBundleInfo(Buffer.from('<plist version="1.0"><array/></plist>'))).toEqual({});
  });
});
