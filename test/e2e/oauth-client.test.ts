// An off-the-shelf, strict OAuth 2 client (oauth4webapi) against a real server:
// RFC 8414 discovery, PKCE, the code grant, refresh, revocation and error handling.
// The browser step (sign in, Allow/Deny) is done with fetch and a cookie jar.
// The service speaks plain http on loopback, so every request needs allowInsecureRequests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { authorize, randomState, startOAuthServer, type OAuthServer } from '../support/oauth-client.ts';

const USER = { email: 'carl@client.test', password: 'carl-password-1' };
const REDIRECT = 'http://127.0.0.1:9/callback';
const client: oauth.Client = { client_id: 'scanbase-e2e-client' };
const clientAuth = oauth.None();
const insecure = { [oauth.allowInsecureRequests]: true };

let server: OAuthServer;
let as: oauth.AuthorizationServer;

before(async () => {
  server = await startOAuthServer();
  await server.seed({ users: [{ ...USER, firstName: 'Carl', lastName: 'Client' }] });
  const issuer = new URL(server.url);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
});
after(() => server?.stop());

/** The browser step for an authorize address built by oauth4webapi's caller. */
async function approve(decision: 'allow' | 'deny' = 'allow') {
  // oauth.generateRandomState() is base64url (upper case, - and _): the service wants [a-z0-9]+.
  const state = randomState();
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', REDIRECT);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  const r = await authorize(server.http, { ...USER, redirectUri: REDIRECT, authorize: url.href, decision });
  return { state, codeVerifier, callback: new URL(r.location) };
}

async function codeGrant() {
  const { state, codeVerifier, callback } = await approve();
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const res = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT, codeVerifier, insecure);
  return oauth.processAuthorizationCodeResponse(as, client, res);
}

async function assertGrantError(p: Promise<unknown>, status: number, error: string) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof oauth.ResponseBodyError, String(e));
    assert.equal(e.status, status);
    assert.equal(e.error, error);
    return true;
  });
}

test('discovery through /.well-known/oauth-authorization-server: issuer is PUBLIC_URL and the endpoints are the service\'s', () => {
  assert.equal(as.issuer, server.url);
  assert.equal(as.authorization_endpoint, `${server.url}/oauth/authorize`);
  assert.equal(as.token_endpoint, `${server.url}/oauth/token`);
  assert.equal(as.revocation_endpoint, `${server.url}/oauth/revoke`);
  assert.equal(as.jwks_uri, `${server.url}/oauth/jwks`);
  assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
});

test('oauth4webapi completes the code grant with PKCE; the access token works on API 1 and API 2', async () => {
  const tokens = await codeGrant();
  assert.equal(tokens.token_type, 'bearer'); // oauth4webapi lower-cases it
  assert.equal(tokens.expires_in, 10800);
  assert.equal(typeof tokens.refresh_token, 'string');
  assert.match(String(tokens.user_id), /^urn:svc:user:/);
  for (const path of ['/api/isLogged', '/api/2/values/permissions']) {
    const res = await oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL(path, server.url), undefined, undefined, insecure);
    assert.equal(res.status, 200, path);
  }
});

test('the access token verifies against the discovered jwks_uri: ES256, typ at+jwt, iss = issuer, sub = user_id, 3 hours', async () => {
  const tokens = await codeGrant();
  const { payload, protectedHeader } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(as.jwks_uri!)), {
    issuer: as.issuer,
    typ: 'at+jwt',
    algorithms: ['ES256'],
  });
  assert.equal(protectedHeader.typ, 'at+jwt');
  assert.equal(payload.sub, tokens.user_id);
  assert.equal(payload.exp! - payload.iat!, 10800);
});

test('refresh rotates the pair; the used refresh token is answered 401 invalid_grant', async () => {
  const first = await codeGrant();
  const res = await oauth.refreshTokenGrantRequest(as, client, clientAuth, first.refresh_token!, insecure);
  const second = await oauth.processRefreshTokenResponse(as, client, res);
  assert.notEqual(second.refresh_token, first.refresh_token);
  assert.notEqual(second.access_token, first.access_token);
  assert.equal(second.expires_in, 10800);
  const reused = await oauth.refreshTokenGrantRequest(as, client, clientAuth, first.refresh_token!, insecure);
  assert.equal(reused.headers.get('www-authenticate'), null);
  const body = await reused.clone().json();
  assert.equal(body.errorCode, 'unauthorized');
  await assertGrantError(oauth.processRefreshTokenResponse(as, client, reused), 401, 'invalid_grant');
  // The rotated one is still good, and refreshing can go on.
  const third = await oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(as, client, clientAuth, second.refresh_token!, insecure),
  );
  assert.equal(typeof third.access_token, 'string');
});

test('revocation (RFC 7009) makes the refresh token unusable', async () => {
  const tokens = await codeGrant();
  await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, tokens.refresh_token!, insecure));
  const res = await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure);
  await assertGrantError(oauth.processRefreshTokenResponse(as, client, res), 401, 'invalid_grant');
});

test('a code exchanged twice, or with another verifier, is answered 400 invalid_grant', async () => {
  const { state, codeVerifier, callback } = await approve();
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const wrong = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT, oauth.generateRandomCodeVerifier(), insecure);
  await assertGrantError(oauth.processAuthorizationCodeResponse(as, client, wrong), 400, 'invalid_grant');
  const again = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT, codeVerifier, insecure);
  await assertGrantError(oauth.processAuthorizationCodeResponse(as, client, again), 400, 'invalid_grant');

  const fresh = await approve();
  const freshParams = oauth.validateAuthResponse(as, client, fresh.callback, fresh.state);
  const ok = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, freshParams, REDIRECT, fresh.codeVerifier, insecure);
  await oauth.processAuthorizationCodeResponse(as, client, ok);
  const replay = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, freshParams, REDIRECT, fresh.codeVerifier, insecure);
  await assertGrantError(oauth.processAuthorizationCodeResponse(as, client, replay), 400, 'invalid_grant');
});

test('Deny reaches the client as an authorization error access_denied with the state', async () => {
  const { state, callback } = await approve('deny');
  assert.equal(callback.searchParams.get('state'), state);
  assert.throws(
    () => oauth.validateAuthResponse(as, client, callback, state),
    (e: unknown) => e instanceof oauth.AuthorizationResponseError && e.error === 'access_denied',
  );
});

test('the state comes back unchanged: the client\'s state check rejects another one', async () => {
  const { state, callback } = await approve();
  assert.equal(callback.searchParams.get('state'), state);
  assert.throws(() => oauth.validateAuthResponse(as, client, callback, `${state}x`));
});
