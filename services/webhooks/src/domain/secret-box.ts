import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Logger } from '@hangar/logger';
import { randomBase62 } from '@hangar/secrets';

const VERSION = 'v1';

/**
 * Webhook secrets must be recoverable (they sign every call), so they are
 * encrypted, not hashed: AES-256-GCM under a key derived (SHA-256) from
 * WEBHOOK_SECRET_KEY, with a fresh 96-bit IV per secret and the webhook id as
 * associated data, so a ciphertext copied onto another webhook does not
 * decrypt. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = createHash('sha256').update(keyMaterial, 'utf8').digest();
  }

  /** The configured key, or a random one for this process only, said loudly. */
  static fromConfig(configured: string | undefined, logger: Logger): SecretBox {
    if (configured) return new SecretBox(configured);
    logger.warn(
      'WEBHOOK_SECRET_KEY is not set: webhook secrets are encrypted with a random key that dies with this process, ' +
        'so after a restart (or on another replica) stored webhooks cannot sign their calls. Set WEBHOOK_SECRET_KEY (32+ characters) in production.',
    );
    return new SecretBox(randomBytes(32).toString('base64'));
  }

  seal(secret: string, webhookId: number): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad(webhookId));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  /** Throws when the key is not the one it was sealed with, or the text was altered. */
  open(sealed: string, webhookId: number): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('unknown webhook secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(aad(webhookId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

const aad = (webhookId: number) => Buffer.from(`hangar-webhook:${webhookId}`, 'utf8');

/** Generated secrets: `whsec_` + 32 base62 characters (≈190 bits). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBase62(32)}`;
}
