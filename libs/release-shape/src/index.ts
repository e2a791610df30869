export { releaseFields, releaseUrls } from './release-fields';
export { androidFields, parseMetadata, signingFields } from './signing-fields';
export type { AndroidFields, CertificateFields, ProfileFields, SigningFields } from './signing-fields';
export { debugFileLinks, debugFileUrl, releaseLinks } from './debug-file-links';
export { RELEASE_FIELD_LIMITS, oversizedReleaseFields } from './metadata-limits';
export type { LimitedReleaseField } from './metadata-limits';
