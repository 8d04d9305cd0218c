// @engine-independent: no database.
// PKCE (RFC 7636 S256) and the authorize address the SDK builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { authorizationRequest, pkceChallenge, pkcePair, randomState } from '../src/index.ts';

test('pkce: the challenge is the unpadded base64url SHA-256 of the verifier (RFC 7636 appendix B vector)', async () => {
  assert.equal(await pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
});

test('pkce: a fresh verifier is 43 unreserved characters and its challenge matches node:crypto', async () => {
  const seen = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const { verifier, challenge } = await pkcePair();
    assert.match(verifier, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(challenge, crypto.createHash('sha256').update(verifier).digest('base64url'));
    seen.add(verifier);
  }
  assert.equal(seen.size, 20);
});

test('state: [a-z0-9] only, of the asked length, and not repeating', () => {
  const states = Array.from({ length: 200 }, () => randomState());
  for (const s of states) assert.match(s, /^[a-z0-9]{32}$/);
  assert.equal(new Set(states).size, 200);
  assert.match(randomState(5), /^[a-z0-9]{5}$/);
});

test('authorize address: S256 challenge, code response, the loopback redirect and the state', async () => {
  const r = await authorizationRequest('http://127.0.0.1:8080', 'http://127.0.0.1:5555/callback');
  const u = new URL(r.url);
  assert.equal(u.origin + u.pathname, 'http://127.0.0.1:8080/oauth/authorize');
  assert.equal(u.searchParams.get('redirect_uri'), 'http://127.0.0.1:5555/callback');
  assert.equal(u.searchParams.get('response_type'), 'code');
  assert.equal(u.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(u.searchParams.get('code_challenge'), await pkceChallenge(r.verifier));
  assert.equal(u.searchParams.get('state'), r.state);
});
