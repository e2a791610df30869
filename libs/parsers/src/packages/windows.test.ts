import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectPackageFormat, parsePackage, UnknownPackageError } from './index';

// Real Windows binaries made with Debian's mingw-w64 (gcc + windres) and msitools (wixl).
let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'hangar-windows-'));
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function buildExe(withVersion: boolean): Promise<string> {
  const source = join(workDir, 'main.c');
  await writeFile(source, 'int main(void) { return 0; }\n');
  const out = join(workDir, withVersion ? 'versioned.upload' : 'bare.upload');
  const inputs = [source];
  if (withVersion) {
    const rc = join(workDir, 'version.rc');
    await writeFile(
      rc,
      [
        '1 VERSIONINFO',
        'FILEVERSION 2,7,1,1234',
        'PRODUCTVERSION 2,7,1,0',
        'BEGIN',
        '  BLOCK "StringFileInfo"',
        '  BEGIN',
        '    BLOCK "040904B0"',
        '    BEGIN',
        '      VALUE "CompanyName", "Hangar Test Corp"',
        '      VALUE "FileDescription", "Hangar demo installer"',
        '      VALUE "FileVersion", "2.7.1.1234"',
        '      VALUE "InternalName", "hangar-demo"',
        '      VALUE "OriginalFilename", "HangarDemoSetup.exe"',
        '      VALUE "ProductName", "Hangar Demo"',
        '      VALUE "ProductVersion", "2.7.1"',
        '    END',
        '  END',
        '  BLOCK "VarFileInfo"',
        '  BEGIN',
        '    VALUE "Translation", 0x409, 1200',
        '  END',
        'END',
        '',
      ].join('\n'),
    );
    const object = join(workDir, 'version.o');
    execFileSync('x86_64-w64-mingw32-windres', [rc, '-O', 'coff', '-o', object]);
    inputs.push(object);
  }
  execFileSync('x86_64-w64-mingw32-gcc', ['-o', out, ...inputs]);
  return out;
}

async function buildMsi(): Promise<string> {
  const wxs = join(workDir, 'demo.wxs');
  await writeFile(wxs, `<?xml version="1.0" encoding="utf-8"?>
<Wix xmlns="http://schemas.microsoft.com/wix/2006/wi">
  <Product Id="8A3F6C57-5E8B-4F3A-9C62-2A1F5C0D7E11" Name="Hangar MSI Demo" Language="1033" Version="5.4.321"
           Manufacturer="Hangar Test Corp" UpgradeCode="3C1E5B7A-9D2F-4E60-8B4A-6F0D2C9E1A55">
    <Package InstallerVersion="200" Compressed="yes" Comments="demo"/>
    <Media Id="1" Cabinet="demo.cab" EmbedCab="yes"/>
    <Directory Id="TARGETDIR" Name="SourceDir">
      <Directory Id="ProgramFilesFolder">
        <Directory Id="INSTALLDIR" Name="HangarDemo">
          <Component Id="MainFile" Guid="0B7C8D9E-1F2A-4B3C-8D4E-5F6A7B8C9D0E">
            <File Id="ReadMe" Name="readme.txt" Source="readme.txt"/>
          </Component>
        </Directory>
      </Directory>
    </Directory>
    <Feature Id="Main" Level="1"><ComponentRef Id="MainFile"/></Feature>
  </Product>
</Wix>
`);
  await writeFile(join(workDir, 'readme.txt'), 'demo\n');
  const out = join(workDir, 'demo-msi.upload');
  // wixl resolves File/@Source relative to the working directory only.
  execFileSync('wixl', ['-o', out, wxs], { stdio: 'pipe', cwd: workDir });
  return out;
}

describe('exe', () => {
  it('when mingw builds an exe with a version resource, then product name, versions and company are read', async () => {
    const path = await buildExe(true);
    expect(await detectPackageFormat(path)).toBe('exe');
    const parsed = await parsePackage(path);
    expect(parsed).toMatchObject({
      format: 'exe',
      platform: 'Windows',
      deviceType: 'Windows',
      name: 'Hangar Demo',
      bundleId: 'Hangar Demo',
      releaseVersion: '2.7.1',
      buildVersion: '2.7.1.1234',
    });
    expect(parsed.details).toMatchObject({
      architecture: 'x64',
      companyName: 'Hangar Test Corp',
      originalFilename: 'HangarDemoSetup.exe',
      fixedFileVersion: '2.7.1.1234',
    });
  });

  it('when an exe has no version resource, then UnknownPackageError so explicit versions can be used', async () => {
    const path = await buildExe(false);
    expect(await detectPackageFormat(path)).toBe('exe');
    await expect(parsePackage(path)).rejects.toThrow(UnknownPackageError);
  });
});

describe('msi', () => {
  it('when wixl builds an msi, then the Property table gives name, version, manufacturer and codes', async () => {
    const path = await buildMsi();
    expect(await detectPackageFormat(path)).toBe('msi');
    const parsed = await parsePackage(path);
    expect(parsed).toMatchObject({
      format: 'msi',
      platform: 'Windows',
      deviceType: 'Windows',
      name: 'Hangar MSI Demo',
      bundleId: '{3C1E5B7A-9D2F-4E60-8B4A-6F0D2C9E1A55}',
      releaseVersion: '5.4.321',
      buildVersion: '321',
    });
    expect(parsed.details).toMatchObject({ manufacturer: 'Hangar Test Corp', productCode: '{8A3F6C57-5E8B-4F3A-9C62-2A1F5C0D7E11}' });
  });
});
