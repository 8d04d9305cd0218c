// PKCE (RFC 7636), S256 only: the spec's "SHA256" and "SHA-256" are spellings of S256.
import { safeEqual, sha256Base64Url } from '../../../core/crypto/digest.ts';

const VERIFIER_RE = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE_RE = /^[A-Za-z0-9\-_]{43}$/;

export type ChallengeMethod = 'S256';

/** Normalises a code_challenge_method; null when it is not an accepted spelling of S256. */
export function normaliseChallengeMethod(method: string): ChallengeMethod | null {
  return method === 'S256' || method === 'SHA256' || method === 'SHA-256' ? 'S256' : null;
}

export const isValidChallenge = (c: string): boolean => CHALLENGE_RE.test(c);
export const isValidVerifier = (v: string): boolean => VERIFIER_RE.test(v);

export const challengeOf = (verifier: string): string => sha256Base64Url(verifier);

/** True when the verifier is well-formed and hashes to the challenge (compared in constant time). */
export function verifyS256(verifier: string, challenge: string): boolean {
  if (!isValidVerifier(verifier)) return false;
  return safeEqual(challengeOf(verifier), challenge);
}
