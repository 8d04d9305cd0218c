// SHA-256 for secrets at rest (codes, refresh tokens, session ids) and constant-time equality.
import crypto from 'node:crypto';

export const sha256Hex = (s: string): string => crypto.createHash('sha256').update(s, 'utf8').digest('hex');

export const sha256Base64Url = (s: string): string =>
  crypto.createHash('sha256').update(s, 'ascii').digest('base64url');

/**
 * Constant-time string equality: both sides are hashed first, so the comparison takes the
 * same time whatever the lengths and wherever the first difference is (not even the length
 * of a secret leaks).
 */
export function safeEqual(a: string, b: string): boolean {
  const ad = crypto.createHash('sha256').update(a, 'utf8').digest();
  const bd = crypto.createHash('sha256').update(b, 'utf8').digest();
  return crypto.timingSafeEqual(ad, bd) && a === b;
}
