// Standard Webhooks signing (https://www.standardwebhooks.com/, "Signature scheme"): the
// secret is `whsec_` + base64 of its bytes; `webhook-signature` is `v1,` + base64 of
// HMAC-SHA256(secret bytes, `${id}.${timestamp}.${body}`), several space-separated while a
// rotated secret's grace period lasts.
import crypto from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** Bytes of a new secret (the specification asks for 24 to 64). */
export const SECRET_BYTES = 24;

/** A secret in the specification's form, from random bytes. */
export const formatSecret = (bytes: Buffer): string => SECRET_PREFIX + bytes.toString('base64');

/** One `v1,` signature of a message with a `whsec_` secret. */
export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64')}`;
}

/** The three headers of a delivery, signed with every secret given (the current one first). */
export function signedHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signatureOf(s, id, timestampSeconds, body)).join(' '),
  };
}
