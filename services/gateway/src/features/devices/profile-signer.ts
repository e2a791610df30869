import { createHash, createPrivateKey, webcrypto, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const OID = {
  data: '1.2.840.113549.1.7.1',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
};

/** OpenSSL's names of the curves WebCrypto signs with, and WebCrypto's. */
const EC_CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

/**
 * Signs the `/udid` profile (a CMS SignedData around the plist, as `openssl smime -sign` makes it),
 * so iOS shows it as "Verified" with the organisation's name instead of "Not Verified". Made from
 * UDID_PROFILE_CERT (PEM: the certificate, then its chain) and UDID_PROFILE_KEY (PEM, PKCS#8 or
 * PKCS#1; RSA, or EC on P-256, P-384 or P-521).
 */
export class ProfileSigner {
  private constructor(
    private readonly certificates: pkijs.Certificate[],
    private readonly key: webcrypto.CryptoKey,
  ) {}

  static async fromPem(certificatePem: string, keyPem: string): Promise<ProfileSigner> {
    const pems = certificatePem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    if (pems.length === 0) throw new Error('UDID_PROFILE_CERT holds no PEM certificate');
    const certificates = pems.map((pem) => pkijs.Certificate.fromBER(new X509Certificate(pem).raw));
    const privateKey = createPrivateKey(keyPem);
    if (!new X509Certificate(pems[0]!).checkPrivateKey(privateKey)) throw new Error('UDID_PROFILE_KEY is not the key of the first certificate of UDID_PROFILE_CERT');
    const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
    const curve = EC_CURVES[privateKey.asymmetricKeyDetails?.namedCurve ?? ''];
    const algorithm = privateKey.asymmetricKeyType === 'rsa' ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } : curve ? { name: 'ECDSA', namedCurve: curve } : undefined;
    if (!algorithm) throw new Error('UDID_PROFILE_KEY must be an RSA key or an EC key on P-256, P-384 or P-521');
    const key = await webcrypto.subtle.importKey('pkcs8', pkcs8, algorithm, false, ['sign']);
    return new ProfileSigner(certificates, key);
  }

  /** The profile's bytes in a SignedData that carries them (attached), DER. */
  async sign(content: Buffer, now = new Date()): Promise<Buffer> {
    const signer = this.certificates[0]!;
    const signedData = new pkijs.SignedData({
      version: 1,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data, eContent: new asn1js.OctetString({ valueHex: content }) }),
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
          signedAttrs: new pkijs.SignedAndUnsignedAttributes({
            type: 0,
            attributes: [
              new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
              new pkijs.Attribute({ type: OID.signingTime, values: [new asn1js.UTCTime({ valueDate: now })] }),
              new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: createHash('sha256').update(content).digest() })] }),
            ],
          }),
        }),
      ],
      certificates: this.certificates,
    });
    await signedData.sign(this.key, 0, 'SHA-256');
    const info = new pkijs.ContentInfo({ contentType: pkijs.ContentInfo.SIGNED_DATA, content: signedData.toSchema(true) });
    return Buffer.from(info.toSchema().toBER(false));
  }
}
