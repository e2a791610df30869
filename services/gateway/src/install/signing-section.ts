import type { releases } from '@hangar/proto';
import { androidFields, parseMetadata, signingFields, type SigningFields } from '@hangar/release-shape';
import { escapeHtml } from './html';

const PROFILE_TYPES: Record<string, string> = { development: 'Development', ad_hoc: 'Ad hoc', enterprise: 'Enterprise (in-house)', app_store: 'App Store' };
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : 'unknown');

/**
 * What a tester needs to know before trying to install: whether the build can still install
 * (an expired profile or certificate cannot), and on ad hoc / development builds whether their
 * device can be among the ones the profile admits. Warnings come first, as an alert.
 */
export function signingWarnings(release: releases.Release, now = new Date()): string {
  const signing = signingFields(parseMetadata(release.metadataJson), now);
  if (!signing) return '';
  const problems: string[] = [];
  if (signing.profile?.expired) {
    problems.push(`The provisioning profile expired on ${day(signing.profile.expires_at)}: devices will refuse to install or open this build. Ask for a build signed with a current profile.`);
  }
  const expired = signing.certificates.filter((c) => c.expired);
  // A profile lists every developer certificate of the team; the build is signed by one of them.
  // Only when all have expired is the signature certainly stale.
  if (expired.length > 0 && expired.length === signing.certificates.length) {
    problems.push(`The signing certificate${expired.length > 1 ? 's' : ''} expired (${expired.map((c) => `${c.common_name ?? c.subject} on ${day(c.expires_at)}`).join('; ')}).`);
  }
  if (problems.length === 0) return '';
  return `<section class="warning" role="alert" aria-labelledby="signing-warning"><h2 id="signing-warning"><i class="fa-solid fa-triangle-exclamation" aria-hidden="true"></i> This build may not install</h2>${problems
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('')}</section>`;
}

/** The signing section of the release page: profile, devices, certificates; Android SDK levels and ABIs. */
export function signingSection(release: releases.Release, now = new Date()): string {
  const metadata = parseMetadata(release.metadataJson);
  const signing = signingFields(metadata, now);
  const android = androidFields(metadata, release.platform);
  const facts: [string, string][] = [...profileFacts(signing), ...certificateFacts(signing)];
  if (android) {
    if (android.min_sdk_version !== null) facts.push(['Android API', `${android.min_sdk_version}+${android.target_sdk_version !== null ? ` (targets ${android.target_sdk_version})` : ''}`]);
    if (android.native_abis.length) facts.push(['Native code', android.native_abis.join(', ')]);
    facts.push(['Permissions', String(android.permissions.length)]);
  }
  if (facts.length === 0) return '';
  const devices = signing?.profile && signing.profile.devices.length > 0 ? deviceList(signing) : '';
  return `<section aria-labelledby="signing"><h2 id="signing">Signing</h2>
<dl class="facts">${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>
${devices}</section>`;
}

function profileFacts(signing: SigningFields | null): [string, string][] {
  const profile = signing?.profile;
  if (!profile) return [];
  const facts: [string, string][] = [['Profile', `${PROFILE_TYPES[profile.type] ?? profile.type}${profile.name ? ` · ${profile.name}` : ''}`]];
  if (profile.provisions_all_devices) facts.push(['Devices', 'any device of the organisation']);
  else if (profile.type === 'ad_hoc' || profile.type === 'development') {
    facts.push(['Devices', `admits ${profile.devices_count} device${profile.devices_count === 1 ? '' : 's'}`]);
  }
  if (profile.team.name || profile.team.id) facts.push(['Team', [profile.team.name, profile.team.id ? `(${profile.team.id})` : ''].filter(Boolean).join(' ')]);
  facts.push([profile.expired ? 'Profile expired' : 'Profile expires', day(profile.expires_at)]);
  return facts;
}

function certificateFacts(signing: SigningFields | null): [string, string][] {
  if (!signing) return [];
  const facts: [string, string][] = [];
  if (signing.schemes.length) facts.push(['Signature schemes', signing.schemes.join(', ')]);
  const shown = signing.certificates.slice(0, 3);
  for (const c of shown) {
    facts.push(['Certificate', `${c.common_name ?? c.subject} · ${c.expired ? 'expired' : 'expires'} ${day(c.expires_at)}`]);
    if (signing.schemes.length) facts.push(['SHA-256', c.sha256]);
  }
  const more = signing.certificates.length - shown.length;
  if (more > 0 || signing.certificates_truncated) facts.push(['', `and ${more > 0 ? more : 'more'} other certificate${more === 1 ? '' : 's'} in the profile`]);
  return facts;
}

function deviceList(signing: SigningFields): string {
  const profile = signing.profile!;
  const rest = profile.devices_count - profile.devices.length;
  return `<details class="devices"><summary>Device UDIDs (${profile.devices_count})</summary><ul>${profile.devices
    .map((udid) => `<li><code>${escapeHtml(udid)}</code></li>`)
    .join('')}${rest > 0 ? `<li class="muted">and ${rest} more not listed</li>` : ''}</ul></details>`;
}
