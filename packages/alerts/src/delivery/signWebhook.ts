import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function isSecret(secret: string): boolean {
  return /^whsec_[A-Za-z0-9+/]{20,}={0,2}$/.test(secret);
}

/**
 * The Standard Webhooks headers of one attempt: `webhook-id` (stable across
 * retries), `webhook-timestamp` (seconds, this attempt), and
 * `webhook-signature`: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one
 * per secret separated by spaces (so a receiver holding either secret
 * verifies during a rotation).
 */
export function signWebhook(id: string, body: string, secrets: readonly string[], at: Date): Record<string, string> {
  const signatures = secrets.map((s) => new Webhook(s).sign(id, at, body));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    ...(signatures.length === 0 ? {} : { 'webhook-signature': signatures.join(' ') }),
  };
}
