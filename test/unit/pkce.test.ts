// PKCE (RFC 7636) as the token endpoint applies it: S256 only, verifiers of 43 to
// 128 unreserved characters, compared in constant time.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import {
  challengeOf, isValidChallenge, isValidVerifier, normaliseChallengeMethod, verifyS256,
} from '../../src/modules/oauth/core/pkce.ts';
import { safeEqual } from '../../src/core/crypto/digest.ts';

// RFC 7636 appendix B.
const RFC_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const RFC_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

test('the S256 challenge of the RFC 7636 appendix B verifier is the RFC value', () => {
  assert.equal(challengeOf(RFC_VERIFIER), RFC_CHALLENGE);
  assert.equal(verifyS256(RFC_VERIFIER, RFC_CHALLENGE), true);
  assert.equal(isValidChallenge(RFC_CHALLENGE), true);
});

test('a verifier that does not hash to the challenge is refused', () => {
  assert.equal(verifyS256(RFC_VERIFIER.replace(/k$/, 'K'), RFC_CHALLENGE), false);
  assert.equal(verifyS256(RFC_VERIFIER, RFC_CHALLENGE.replace(/M$/, 'N')), false);
  // A challenge of another length is refused without throwing (timingSafeEqual would).
  assert.equal(verifyS256(RFC_VERIFIER, RFC_CHALLENGE.slice(0, 20)), false);
  assert.equal(verifyS256(RFC_VERIFIER, ''), false);
});

test('a verifier is 43 to 128 characters: 42 and 129 are refused', () => {
  const ok43 = 'a'.repeat(43);
  const ok128 = 'A'.repeat(128);
  assert.equal(isValidVerifier(ok43), true);
  assert.equal(isValidVerifier(ok128), true);
  assert.equal(verifyS256(ok43, challengeOf(ok43)), true);
  assert.equal(verifyS256(ok128, challengeOf(ok128)), true);

  const bad42 = 'a'.repeat(42);
  const bad129 = 'A'.repeat(129);
  assert.equal(isValidVerifier(bad42), false);
  assert.equal(isValidVerifier(bad129), false);
  // Even when the challenge is the verifier's own hash.
  assert.equal(verifyS256(bad42, challengeOf(bad42)), false);
  assert.equal(verifyS256(bad129, challengeOf(bad129)), false);
});

test('a verifier uses only the unreserved characters A-Z a-z 0-9 - . _ ~', () => {
  assert.equal(isValidVerifier(`${'a'.repeat(40)}-._~`), true);
  for (const c of [' ', '+', '/', '=', '%', 'é', '\u0000', '\n']) {
    const v = `${'a'.repeat(43)}${c}`;
    assert.equal(isValidVerifier(v), false, JSON.stringify(c));
    assert.equal(verifyS256(v, challengeOf(v)), false, JSON.stringify(c));
  }
});

test('code_challenge_method accepts S256, SHA256 and SHA-256 as S256 and refuses plain', () => {
  assert.equal(normaliseChallengeMethod('S256'), 'S256');
  assert.equal(normaliseChallengeMethod('SHA256'), 'S256');
  assert.equal(normaliseChallengeMethod('SHA-256'), 'S256');
  for (const m of ['plain', 's256', 'sha256', 'SHA-512', '']) assert.equal(normaliseChallengeMethod(m), null, m);
});

test('a challenge is 43 base64url characters', () => {
  assert.equal(isValidChallenge('a'.repeat(43)), true);
  assert.equal(isValidChallenge('a'.repeat(42)), false);
  assert.equal(isValidChallenge('a'.repeat(44)), false);
  assert.equal(isValidChallenge(`${'a'.repeat(42)}=`), false);
  assert.equal(isValidChallenge(`${'a'.repeat(42)}+`), false);
});

test('the verifier check compares in constant time (crypto.timingSafeEqual)', () => {
  const spy = mock.method(crypto, 'timingSafeEqual');
  try {
    assert.equal(verifyS256(RFC_VERIFIER, RFC_CHALLENGE), true);
    assert.equal(verifyS256(RFC_VERIFIER, RFC_CHALLENGE.replace(/^E/, 'F')), false);
    assert.equal(spy.mock.callCount(), 2);
  } finally {
    spy.mock.restore();
  }
});

test('safeEqual is plain equality, never throwing on different lengths', () => {
  assert.equal(safeEqual('abc', 'abc'), true);
  assert.equal(safeEqual('abc', 'abd'), false);
  assert.equal(safeEqual('abc', 'abcd'), false);
  assert.equal(safeEqual('', ''), true);
  assert.equal(safeEqual('é', 'e\u0301'), false);
});
