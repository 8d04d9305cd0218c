// SHA-256 for secrets at rest (codes, refresh tokens, session ids) and constant-time equality.
import crypto from 'node:crypto';

export const sha256Hex = (s: string): string => crypto.createHash('sha256').update(s, 'utf8').digest('hex');

export const sha256Base64Url = (s: string): string =>
  crypto.createHash('sha256').update(s, 'ascii').digest('base64url');

/** Constant-time string equality (lengths are not secret). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ab.length !== bb.length) return false;
  return crypto.timingSafeEqual(ab, bb);
}
