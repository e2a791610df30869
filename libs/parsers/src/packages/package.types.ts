export type Platform = 'iOS' | 'Android' | 'macOS' | 'Windows' | 'Linux';

export type PackageFormat = 'ipa' | 'apk' | 'aab' | 'app-zip' | 'dmg' | 'exe' | 'msi' | 'deb' | 'rpm' | 'appimage';

export interface ParsedPackage {
  format: PackageFormat;
  platform: Platform;
  /** iOS: iPhone | iPad | Universal; Android: Phone | Tablet | TV | Watch | Automotive; desktop: the platform name. */
  deviceType: string;
  name: string;
  bundleId: string;
  releaseVersion: string;
  buildVersion: string;
  minOsVersion?: string;
  /** iOS only: AdHoc | Enterprise | Development | AppStore. */
  releaseType?: string;
  /** A standard PNG a browser can display. */
  icon?: Buffer;
  /** JSON-safe extras; keys never contain '.' nor start with '$' (they are stored in MongoDB). */
  details: Record<string, unknown>;
}

export interface ParseOptions {
  /** Largest uncompressed size accepted for any single entry read from an archive. */
  maxEntrySize?: number;
}

export const DEFAULT_MAX_ENTRY_SIZE = 64 * 1024 * 1024;
