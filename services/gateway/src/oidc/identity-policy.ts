import { PermissionDenied } from '@hangar/errors';
import type { ProvidedIdentity } from './identity-provider';

/**
 * Who may sign in through the identity provider: an email the provider says
 * is verified (an unverified one could be anybody's, and would be matched to
 * that person's Hangar account), in an allowed domain when a list is set.
 * Domains match exactly: `example.com` does not admit `evil.example.com`.
 */
export function admittedEmail(identity: ProvidedIdentity, allowedDomains: string[]): string {
  if (!identity.email) throw new PermissionDenied('The identity provider gave no email address: ask your admin to release the email claim to Hangar');
  if (!identity.emailVerified) throw new PermissionDenied(`The email ${identity.email} is not verified at the identity provider: verify it there, then sign in again`);
  const email = identity.email.trim().toLowerCase();
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (allowedDomains.length > 0 && !allowedDomains.includes(domain)) {
    throw new PermissionDenied(`Accounts of ${domain} may not sign in to this Hangar: ask your admin which accounts may`);
  }
  return email;
}
