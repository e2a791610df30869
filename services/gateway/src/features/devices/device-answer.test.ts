import { makeTestDevice, pemOf, signedDeviceAnswer, verifiedCmsContent, type TestDevice } from '@hangar/testing';
import plist from 'plist';
import { readDeviceAnswer } from './device-answer';
import { ProfileSigner } from './profile-signer';
import { udidProfile } from './udid-profile';

const UDID = '00008030-001A2C3E0E38802E';
let device: TestDevice;
let other: TestDevice;

beforeAll(() => {
  device = makeTestDevice('Device A');
  other = makeTestDevice('Device B');
});

describe("a device's answer to the /udid profile", () => {
  it('when the device signed its attributes, then its UDID, model, iOS build, name and the challenge are read', async () => {
    const body = signedDeviceAnswer(device, { UDID, PRODUCT: 'iPhone15,2', VERSION: '21A329', DEVICE_NAME: "Jane's iPhone", CHALLENGE: 'c.1.x' });
    await expect(readDeviceAnswer(body)).resolves.toEqual({ udid: UDID, product: 'iPhone15,2', osVersion: '21A329', deviceName: "Jane's iPhone", challenge: 'c.1.x' });
  });

  it('when a byte of the signed content is changed, then the answer is refused', async () => {
    const body = signedDeviceAnswer(device, { UDID, PRODUCT: 'iPhone15,2', VERSION: '21A329' });
    const at = body.indexOf(Buffer.from('iPhone15,2'));
    expect(at).toBeGreaterThan(0);
    const forged = Buffer.from(body);
    forged[at + 6] = '9'.charCodeAt(0);
    await expect(readDeviceAnswer(forged)).rejects.toThrow(/signature does not verify/);
  });

  it("when the signature is another device's certificate's, then the answer is refused", async () => {
    const body = signedDeviceAnswer(device, { UDID, PRODUCT: 'iPhone15,2', VERSION: '21A329' });
    const foreign = signedDeviceAnswer(other, { UDID, PRODUCT: 'iPhone15,2', VERSION: '21A329' });
    // Swap the signature value (the last 256 bytes of an RSA-2048 SignerInfo) for the other device's.
    const swapped = Buffer.concat([body.subarray(0, body.length - 256), foreign.subarray(foreign.length - 256)]);
    await expect(readDeviceAnswer(swapped)).rejects.toThrow(/signature does not verify/);
  });

  it('when the body is no CMS structure, a bare plist, empty, or signed without a UDID, then it is refused with a reason', async () => {
    await expect(readDeviceAnswer(Buffer.from('<plist><dict><key>UDID</key><string>x</string></dict></plist>'))).rejects.toThrow(/Not a device's answer/);
    await expect(readDeviceAnswer(Buffer.alloc(0))).rejects.toThrow(/empty/);
    await expect(readDeviceAnswer(Buffer.from([0x30, 0x80, 0x06, 0x09]))).rejects.toThrow(/Not a device's answer/);
    await expect(readDeviceAnswer(signedDeviceAnswer(device, { PRODUCT: 'iPhone15,2' }))).rejects.toThrow(/no UDID/);
    await expect(readDeviceAnswer(Buffer.alloc(70 * 1024, 0x30))).rejects.toThrow(/too large/);
  });
});

describe('the /udid profile', () => {
  it('when no certificate is configured, then it is a Profile Service plist asking for the UDID, model, iOS build and name, posting to the URL with the challenge', () => {
    const profile = plist.parse(udidProfile('https://hangar.example/udid/register?t=abc', 'abc', 'Acme').toString('utf8')) as Record<string, any>;
    expect(profile).toMatchObject({
      PayloadType: 'Profile Service',
      PayloadVersion: 1,
      PayloadOrganization: 'Acme',
      PayloadContent: { URL: 'https://hangar.example/udid/register?t=abc', Challenge: 'abc', DeviceAttributes: ['UDID', 'PRODUCT', 'VERSION', 'DEVICE_NAME'] },
    });
  });

  it('when a certificate and key are configured, then the profile is CMS-signed data that openssl verifies and whose content is the profile', async () => {
    const signer = await ProfileSigner.fromPem(pemOf(device.certificate) + pemOf(device.caCertificate), pemOf(device.key));
    const profile = udidProfile('https://hangar.example/udid/register?t=abc', 'abc', 'Acme');
    const signed = await signer.sign(profile);
    expect(verifiedCmsContent(signed, device.dir).equals(profile)).toBe(true);
    // What Hangar signs, Hangar's own reader accepts too (the same CMS rules both ways).
    await expect(readDeviceAnswer(await signer.sign(Buffer.from(`<plist version="1.0"><dict><key>UDID</key><string>${UDID}</string></dict></plist>`)))).resolves.toMatchObject({ udid: UDID });
  });

  it('when the key is not the certificate\'s, then the signer is not made', async () => {
    await expect(ProfileSigner.fromPem(pemOf(device.certificate), pemOf(other.key))).rejects.toThrow(/not the key/);
  });
});
