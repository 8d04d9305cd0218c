// The docs pages sign in as public PKCE clients whose redirect is their own
// oauth2-redirect page on PUBLIC_URL: exactly those two addresses are added to what
// GET /oauth/authorize accepts (localhost, 127.0.0.1, "/"); nothing else on that origin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAllowedRedirectUri, parseAuthorizeRequest } from '../../src/modules/oauth/core/authorize-request.ts';
import { docsPageRedirects } from '../../src/http/openapi.ts';

const PUBLIC_URL = 'https://scanbase.example.com';
const own = new Set(docsPageRedirects(PUBLIC_URL));
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

test('the docs pages redirect addresses are the two oauth2-redirect pages on PUBLIC_URL', () => {
  assert.deepEqual([...own].sort(), [
    'https://scanbase.example.com/api/2/docs/static/oauth2-redirect.html',
    'https://scanbase.example.com/api/docs/static/oauth2-redirect.html',
  ]);
  for (const uri of own) assert.equal(isAllowedRedirectUri(uri, own), true, uri);
});

test('no other address on the public origin, and no look-alike, is accepted', () => {
  for (const uri of [
    'https://scanbase.example.com/',
    'https://scanbase.example.com/api/2/docs/static/index.html',
    'https://scanbase.example.com/api/2/docs/static/oauth2-redirect.html?next=1',
    'https://scanbase.example.com/api/2/docs/static/oauth2-redirect.html/',
    'https://scanbase.example.com/api/2/docs/static/oauth2-redirect.html#x',
    'http://scanbase.example.com/api/2/docs/static/oauth2-redirect.html',
    'https://scanbase.example.com.evil.test/api/2/docs/static/oauth2-redirect.html',
    'https://user@scanbase.example.com/api/2/docs/static/oauth2-redirect.html',
    'https://SCANBASE.example.com/api/2/docs/static/oauth2-redirect.html',
  ]) {
    assert.equal(isAllowedRedirectUri(uri, own), false, uri);
  }
  // Without the service's own set (any other caller of the rule), the pages are not allowed.
  assert.equal(isAllowedRedirectUri([...own][0]!), false);
});

test('a docs page authorization still needs a [a-z0-9]+ state', () => {
  const redirect_uri = [...own][0]!;
  const ok = parseAuthorizeRequest({ redirect_uri, state: 'a1b2c3', code_challenge: CHALLENGE, code_challenge_method: 'S256' }, own);
  assert.equal(ok.redirectUri, redirect_uri);
  assert.throws(
    () => parseAuthorizeRequest({ redirect_uri, state: 'V2VkIE5vdiAyNSAyMDI2', code_challenge: CHALLENGE, code_challenge_method: 'S256' }, own),
    /state must match/,
  );
});
