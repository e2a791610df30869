import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import plist from 'plist';
import { InvalidArgument } from '@hangar/errors';

/** What a device sends to the profile service: a few KiB of signed plist. */
export const DEVICE_ANSWER_MAX_BYTES = 64 * 1024;

export interface DeviceAnswer {
  udid: string;
  product: string;
  osVersion: string;
  /** The device's own name, when it gave one (iOS 16 and later say only "iPhone"). */
  deviceName: string;
  /** The profile's challenge, echoed. */
  challenge: string;
}

const refused = (why: string) => new InvalidArgument(`Not a device's answer: ${why}`);

/**
 * Reads the answer a device posts after installing the `/udid` profile: a CMS SignedData (RFC 5652)
 * whose content is an XML plist of the attributes asked for. Checked: the structure, the digest of
 * the content against the signed attributes, and the signature against the public key of the
 * certificate the signer names, which the answer carries. Not checked: that the certificate chains
 * to Apple's device CA (Apple does not publish it for this use); the challenge, signed by Hangar,
 * is what ties the answer to a tester.
 */
export async function readDeviceAnswer(body: Buffer): Promise<DeviceAnswer> {
  if (body.length === 0 || body.length > DEVICE_ANSWER_MAX_BYTES) throw refused('empty or too large');
  const signed = signedDataOf(body);
  const content = signed.encapContentInfo?.eContent;
  if (!content) throw refused('no content');
  let verified = false;
  try {
    verified = signed.signerInfos.length > 0 && (await signed.verify({ signer: 0, checkChain: false }));
  } catch {
    verified = false;
  }
  if (!verified) throw refused('its signature does not verify');
  return attributesOf(Buffer.from(content.getValue()));
}

function signedDataOf(body: Buffer): pkijs.SignedData {
  const parsed = asn1js.fromBER(new Uint8Array(body.buffer, body.byteOffset, body.length));
  if (parsed.offset === -1) throw refused('not DER');
  try {
    const info = new pkijs.ContentInfo({ schema: parsed.result });
    if (info.contentType !== pkijs.ContentInfo.SIGNED_DATA) throw refused('not signed data');
    return new pkijs.SignedData({ schema: info.content });
  } catch (err) {
    if (err instanceof InvalidArgument) throw err;
    throw refused('not a CMS structure');
  }
}

function attributesOf(content: Buffer): DeviceAnswer {
  let attributes: unknown;
  try {
    attributes = plist.parse(content.toString('utf8'));
  } catch {
    throw refused('its content is not a property list');
  }
  if (!attributes || typeof attributes !== 'object' || Array.isArray(attributes)) throw refused('its content is not a dictionary');
  const text = (key: string) => {
    const value = (attributes as Record<string, unknown>)[key];
    return typeof value === 'string' ? value : '';
  };
  if (!text('UDID')) throw refused('no UDID');
  return { udid: text('UDID'), product: text('PRODUCT'), osVersion: text('VERSION'), deviceName: text('DEVICE_NAME'), challenge: text('CHALLENGE') };
}
