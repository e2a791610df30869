/** A signing certificate as people compare them: who, until when, and the fingerprint tools print. */
export interface CertificateSummary {
  subject: string;
  commonName?: string;
  /** SHA-256 of the DER certificate, upper-case hex pairs joined by ':' (keytool's and openssl's form). */
  sha256: string;
  notBefore?: string;
  expiresAt?: string;
}

/** Apple's names for what a provisioning profile allows, as Xcode derives them. */
export type ProfileType = 'development' | 'ad_hoc' | 'enterprise' | 'app_store';

export interface ProfileSummary {
  type: ProfileType;
  name?: string;
  uuid?: string;
  appIdName?: string;
  team: { name?: string; id?: string };
  platforms: string[];
  createdAt?: string;
  expiresAt?: string;
  /** How many devices the profile admits; `devices` holds at most the first MAX_LISTED_DEVICES of them. */
  devicesCount: number;
  devices: string[];
  devicesTruncated: boolean;
  provisionsAllDevices: boolean;
  /**
   * Key and JSON-encoded value: entitlement keys contain dots, which MongoDB/FerretDB refuse as
   * field names, and values are any plist type.
   */
  entitlements: Array<{ key: string; value: string }>;
  entitlementsTruncated: boolean;
}

/** What a package says about who signed it. Stored on releases in `details.signing`. */
export interface PackageSigning {
  /** Android: v1 (JAR), v2, v3, v3.1 (APK Signing Block). Apple packages: none listed. */
  schemes: string[];
  certificates: CertificateSummary[];
  certificatesTruncated: boolean;
  profile?: ProfileSummary;
}

// Bounds on what one package can make us store and show (a hostile profile may list 100,000
// devices or thousands of certificates): counts stay exact, lists are cut and say so.
export const MAX_LISTED_DEVICES = 200;
export const MAX_CERTIFICATES = 20;
export const MAX_ENTITLEMENTS = 100;
export const MAX_ENTITLEMENT_VALUE_CHARS = 1024;
