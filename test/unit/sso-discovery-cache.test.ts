// The OIDC relying party's discovery cache (src/modules/sso/adapters/openid-client.ts) is the
// node's `sso-discovery` LRU: one discovery per provider and client for 10 minutes on the
// injected clock, sign-ins at once sharing the one under way, a failed discovery forgotten.
// Against a loopback issuer that counts its discovery requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CacheRegistry } from '../../src/core/cache/registry.ts';
import { createOpenIdRelyingParty } from '../../src/modules/sso/adapters/openid-client.ts';
import { IdpError } from '../../src/modules/sso/core/ports.ts';

async function issuer(): Promise<{ url: string; discoveries: () => number; failNext: () => void; close: () => Promise<void> }> {
  let discoveries = 0;
  let fail = false;
  const server = http.createServer((req, res) => {
    if (req.url !== '/.well-known/openid-configuration') return void res.writeHead(404).end();
    discoveries++;
    if (fail) {
      fail = false;
      return void res.writeHead(503).end();
    }
    const { port } = server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      issuer: base, authorization_endpoint: `${base}/auth`, token_endpoint: `${base}/token`, jwks_uri: `${base}/jwks`,
      response_types_supported: ['code'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'],
    }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, discoveries: () => discoveries, failNext: () => { fail = true; },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const params = { state: 's', nonce: 'n', codeVerifier: 'v'.repeat(43), loginHint: 'a@example.com' };

test('a discovery is made once per provider for 10 minutes on the clock, shared by sign-ins at once, reported as the sso-discovery cache', async (t) => {
  const idp = await issuer();
  t.after(idp.close);
  let now = 1_000_000;
  const caches = new CacheRegistry();
  const rp = createOpenIdRelyingParty({ timeoutSeconds: 5, now: () => now, caches });
  const client = { issuer: idp.url, clientId: 'scanbase', clientSecret: null, scopes: ['openid', 'email'], redirectUri: 'http://localhost/sso/callback' };

  const urls = await Promise.all([1, 2, 3].map(() => rp.authorizationUrl(client, params)));
  assert.equal(idp.discoveries(), 1, 'three sign-ins at once share one discovery');
  assert.ok(urls.every((u) => u.href.startsWith(`${idp.url}/auth?`)));
  now += 10 * 60 * 1000 - 1;
  await rp.authorizationUrl(client, params);
  assert.equal(idp.discoveries(), 1, 'still kept just before 10 minutes');
  now += 1;
  await rp.authorizationUrl(client, params);
  assert.equal(idp.discoveries(), 2, 'made again once 10 minutes have passed');
  await rp.authorizationUrl({ ...client, clientId: 'other' }, params);
  assert.equal(idp.discoveries(), 3, 'another client of the provider has its own');

  const stats = caches.stats().find((s) => s.name === 'sso-discovery');
  assert.equal(stats?.size, 2);
  assert.equal(stats?.maxWeight, 1000);
});

test('a failed discovery is not kept: the sign-in gets an unreachable IdpError and the next one asks again', async (t) => {
  const idp = await issuer();
  t.after(idp.close);
  const rp = createOpenIdRelyingParty({ timeoutSeconds: 5 });
  const client = { issuer: idp.url, clientId: 'scanbase', clientSecret: null, scopes: ['openid'], redirectUri: 'http://localhost/sso/callback' };
  idp.failNext();
  await assert.rejects(rp.authorizationUrl(client, params), (e) => e instanceof IdpError && e.reason === 'unreachable' && /discovery failed/.test(e.message));
  await rp.authorizationUrl(client, params);
  assert.equal(idp.discoveries(), 2, 'asked again after the failure');
  await rp.authorizationUrl(client, params);
  assert.equal(idp.discoveries(), 2, 'and kept once it worked');
});
