// The rules of the token service (spec "Authentication", CONTRACT §4), checked through
// app.inject() on a fresh database: PKCE, code binding, redirect and state rules, CSRF,
// token verification, refresh-token rotation limits, revocation, sign-in throttling,
// and the JWKS / RFC 8414 documents.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { SignJWT, importJWK, jwtVerify, createLocalJWKSet, decodeProtectedHeader, type JWK } from 'jose';
import { loadConfig } from '../../src/config.ts';
import { compose, type Core } from '../../src/compose.ts';
import { buildApp, type App } from '../../src/http/app.ts';
import { testDatabase, type TestDatabase } from '../support/database.ts';
import { OPERATOR_TOKEN, PUBLIC_URL } from '../support/app.ts';
import {
  UserAgent,
  authorize,
  authorizePath,
  bearerGet,
  exchangeCode,
  header,
  hiddenFieldsOf,
  injectTransport,
  obtainTokens,
  pkcePair,
  randomState,
  refresh,
  signIn,
  tokenRequest,
  type HttpResponse,
  type TokenPair,
  type Transport,
} from '../support/oauth-client.ts';

const REDIRECT = 'http://127.0.0.1:9/callback';
const USERS = {
  olivia: { email: 'olivia@acme.test', password: 'olivia-password-1' },
  mark: { email: 'mark@acme.test', password: 'mark-password-1' },
  rita: { email: 'rita@acme.test', password: 'rita-password-1' },
  tom: { email: 'tom@acme.test', password: 'tom-password-1' },
  vera: { email: 'vera@acme.test', password: 'vera-password-1' },
  sam: { email: 'sam@acme.test', password: 'sam-password-1' },
};

let db: TestDatabase;
let core: Core;
let app: App;
let http: Transport;
const userIds: Record<string, string> = {};

before(async () => {
  db = await testDatabase();
  const config = loadConfig({ DATABASE_URL: 'memory:', OPERATOR_TOKEN, SANDBOX: '1', PUBLIC_URL });
  core = await compose(config, { sql: db.sql });
  app = await buildApp(core);
  http = injectTransport(app);
  const res = await app.inject({
    method: 'POST',
    url: '/_operator/seed',
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    payload: { users: Object.values(USERS).map((u) => ({ ...u, firstName: 'Test', lastName: 'User' })) },
  });
  assert.equal(res.statusCode, 200, res.body);
  for (const u of res.json().users as { email: string; id: string }[]) userIds[u.email] = u.id;
});
after(async () => {
  await app?.close();
  await core?.close();
  await db?.drop();
});

const operatorTokens = async (email: string): Promise<TokenPair> => {
  const res = await app.inject({
    method: 'POST',
    url: '/_operator/tokens',
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    payload: { email },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
};

const json = (res: HttpResponse) => JSON.parse(res.body);
const countCodes = async () => (await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM authorization_codes'))[0]!.n;

/** A code for olivia with an S256 challenge; answers the code and its verifier. */
async function codeFor(redirectUri = REDIRECT, method = 'S256', user = USERS.olivia) {
  const { verifier, challenge } = pkcePair();
  const r = await authorize(http, { ...user, redirectUri, codeChallenge: challenge, codeChallengeMethod: method });
  assert.ok(r.code, `no code in ${r.location}`);
  return { code: r.code, verifier, state: r.state, location: r.location };
}

function assertInvalidGrant(res: HttpResponse, status = 400) {
  assert.equal(res.status, status, res.body);
  assert.equal(json(res).error, 'invalid_grant');
}

/** The page is an HTML error page and the service redirected nowhere. */
function assertErrorPageNoRedirect(res: HttpResponse, status = 400) {
  assert.equal(res.status, status, res.body);
  assert.match(String(header(res, 'content-type')), /^text\/html/);
  assert.equal(header(res, 'location'), undefined);
  assert.doesNotMatch(res.body, /name="csrf"/, 'an error page carries no form');
}

async function assertAccepted(token: string) {
  const r1 = await bearerGet(http, '/api/isLogged', token);
  assert.equal(r1.status, 200, r1.body);
  assert.deepEqual(json(r1), { success: true });
  const r2 = await bearerGet(http, '/api/2/values/permissions', token);
  assert.equal(r2.status, 200);
}

async function assertRejected(token: string) {
  const r1 = await bearerGet(http, '/api/isLogged', token);
  assert.equal(r1.status, 401, r1.body);
  assert.equal(json(r1).code, 'unauthorized');
  const r2 = await bearerGet(http, '/api/2/values/permissions', token);
  assert.equal(r2.status, 401);
  assert.match(String(header(r2, 'content-type')), /^application\/problem\+json/);
  assert.equal(json(r2).errorCode, 'unauthorized');
}

describe('code exchange', () => {
  test('a code exchanged with its verifier answers the token pair {access_token, refresh_token, Bearer, 10800, user_id}', async () => {
    const { code, verifier } = await codeFor();
    const res = await exchangeCode(http, code, REDIRECT, verifier);
    assert.equal(res.status, 200, res.body);
    const body = json(res);
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'refresh_token', 'token_type', 'user_id']);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 10800);
    assert.equal(body.user_id, `urn:svc:user:${userIds[USERS.olivia.email]}`);
    assert.match(String(header(res, 'cache-control')), /no-store/);
    await assertAccepted(body.access_token);
  });

  test('a code is single use: the second exchange answers 400 invalid_grant', async () => {
    const { code, verifier } = await codeFor();
    assert.equal((await exchangeCode(http, code, REDIRECT, verifier)).status, 200);
    assertInvalidGrant(await exchangeCode(http, code, REDIRECT, verifier));
  });

  test('a wrong code_verifier answers 400 invalid_grant, and the code is burnt (the right verifier fails afterwards)', async () => {
    const { code, verifier } = await codeFor();
    assertInvalidGrant(await exchangeCode(http, code, REDIRECT, pkcePair().verifier));
    assertInvalidGrant(await exchangeCode(http, code, REDIRECT, verifier));
  });

  test('a missing code_verifier, when a challenge was sent, answers 400 invalid_grant', async () => {
    const { code } = await codeFor();
    assertInvalidGrant(await exchangeCode(http, code, REDIRECT, undefined));
  });

  test('a malformed code_verifier (too short, bad characters) answers 400 invalid_grant', async () => {
    for (const bad of ['short', 'x'.repeat(42), `${'a'.repeat(43)}!`, 'é'.repeat(50)]) {
      const { code } = await codeFor();
      assertInvalidGrant(await exchangeCode(http, code, REDIRECT, bad));
    }
  });

  test('a code_verifier for a code issued without a challenge is refused (PKCE downgrade, RFC 9700 §2.1.1)', async () => {
    const r = await authorize(http, { ...USERS.olivia, redirectUri: REDIRECT });
    assertInvalidGrant(await exchangeCode(http, r.code!, REDIRECT, pkcePair().verifier));
  });

  test('a code issued without a challenge exchanges without a verifier', async () => {
    const r = await authorize(http, { ...USERS.olivia, redirectUri: REDIRECT });
    const res = await exchangeCode(http, r.code!, REDIRECT, undefined);
    assert.equal(res.status, 200, res.body);
  });

  test('a code is bound to its redirect address: another address (or none) answers 400 invalid_grant', async () => {
    for (const other of ['http://127.0.0.1:9/other', 'http://localhost:9/callback', 'http://127.0.0.1:10/callback', undefined]) {
      const { code, verifier } = await codeFor();
      assertInvalidGrant(await tokenRequest(http, { grant_type: 'authorization_code', code, authorization_code: other, code_verifier: verifier }));
    }
  });

  test('the redirect address may be sent as redirect_uri instead of authorization_code', async () => {
    const { code, verifier } = await codeFor();
    const res = await tokenRequest(http, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    assert.equal(res.status, 200, res.body);
  });

  test('an unknown code answers 400 invalid_grant; a missing code answers 400 invalid_request', async () => {
    assertInvalidGrant(await exchangeCode(http, 'not-a-code', REDIRECT, pkcePair().verifier));
    const res = await tokenRequest(http, { grant_type: 'authorization_code', authorization_code: REDIRECT });
    assert.equal(res.status, 400);
    assert.equal(json(res).error, 'invalid_request');
  });

  test('a code is bound to its user: the tokens name the user who approved', async () => {
    const { code, verifier } = await codeFor(REDIRECT, 'S256', USERS.mark);
    const body = json(await exchangeCode(http, code, REDIRECT, verifier));
    assert.equal(body.user_id, `urn:svc:user:${userIds[USERS.mark.email]}`);
  });

  test('SHA256, SHA-256 and S256 are all accepted as code_challenge_method (all S256)', async () => {
    for (const method of ['SHA256', 'SHA-256', 'S256']) {
      const { code, verifier } = await codeFor(REDIRECT, method);
      const res = await exchangeCode(http, code, REDIRECT, verifier);
      assert.equal(res.status, 200, `${method}: ${res.body}`);
    }
  });

  test('codes are stored hashed: the database never holds a code in clear', async () => {
    const { code } = await codeFor();
    const rows = await db.sql.query<{ code_hash: string }>('SELECT code_hash FROM authorization_codes');
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => r.code_hash !== code));
    assert.ok(rows.some((r) => r.code_hash === crypto.createHash('sha256').update(code).digest('hex')));
  });
});

describe('GET /oauth/authorize', () => {
  test('the plain method is refused: an error page (400) and no redirect', async () => {
    const { verifier } = pkcePair();
    const plainChallenge = verifier; // plain: the challenge is the verifier itself
    for (const method of ['plain', 'PLAIN', 'S512']) {
      const res = await http({
        method: 'GET',
        path: authorizePath({ redirectUri: REDIRECT, state: 'abc', codeChallenge: plainChallenge, codeChallengeMethod: method }),
      });
      assertErrorPageNoRedirect(res);
    }
  });

  test('a challenge without code_challenge_method is refused (no silent plain)', async () => {
    const q = new URLSearchParams({ redirect_uri: REDIRECT, state: 'abc', code_challenge: pkcePair().challenge });
    assertErrorPageNoRedirect(await http({ method: 'GET', path: `/oauth/authorize?${q}` }));
  });

  const FOREIGN = [
    'https://evil.example/cb',
    'http://localhost.evil.com/',
    'http://127.0.0.1.evil.com/cb',
    'http://evil.com#@localhost/',
    'http://localhost@evil.com/',
    'http://user:pw@localhost/',
    '//evil.example/cb',
    '/cb',
    'javascript:alert(1)//localhost',
    'ftp://localhost/',
    'file:///etc/passwd',
    'http://[::1]/cb',
    'http://127.0.0.2/cb',
  ];

  test('a foreign redirect_uri gets an error page and is never redirected to', async () => {
    for (const uri of FOREIGN) {
      const res = await http({ method: 'GET', path: authorizePath({ redirectUri: uri, state: 'abc' }) });
      assertErrorPageNoRedirect(res);
    }
  });

  test('a redirect_uri with a fragment (even an empty one) gets an error page and is never redirected to (RFC 6749 §3.1.2)', async () => {
    const withFragment = ['http://localhost/cb#frag', `${REDIRECT}#`, 'http://127.0.0.1:9/cb?x=1#a=b', 'https://localhost:8443/#'];
    for (const uri of withFragment) {
      assertErrorPageNoRedirect(await http({ method: 'GET', path: authorizePath({ redirectUri: uri, state: 'abc' }) }));
    }
    // Nor through the forms: sign-in and approval refuse it too, and no code is issued.
    const agent = new UserAgent(http);
    const approve = await signIn(agent, authorizePath({ redirectUri: REDIRECT, state: 'frag' }), USERS.olivia.email, USERS.olivia.password);
    const fields = hiddenFieldsOf(approve.body);
    const before = await countCodes();
    for (const uri of withFragment) {
      for (const decision of ['allow', 'deny']) {
        assertErrorPageNoRedirect(await agent.postForm('/oauth/authorize', { ...fields, redirect_uri: uri, decision }));
      }
      assertErrorPageNoRedirect(await agent.postForm('/oauth/login', { ...fields, redirect_uri: uri, ...USERS.olivia }));
    }
    assert.equal(await countCodes(), before);
  });

  test('a response_type other than code gets an error page, with or without a challenge', async () => {
    for (const type of ['token', 'id_token', 'code token']) {
      for (const challenge of [undefined, pkcePair().challenge]) {
        const path = `${authorizePath({ redirectUri: REDIRECT, state: 'abc', codeChallenge: challenge })}`.replace(
          'response_type=code',
          `response_type=${encodeURIComponent(type)}`,
        );
        assertErrorPageNoRedirect(await http({ method: 'GET', path }));
      }
    }
    // Omitted (the spec does not require it) or code: accepted.
    const q = new URLSearchParams({ redirect_uri: REDIRECT, state: 'abc' });
    assert.equal((await http({ method: 'GET', path: `/oauth/authorize?${q}` })).status, 200);
  });

  test('a missing redirect_uri or state, or one given twice, gets an error page', async () => {
    for (const q of [
      'state=abc',
      `redirect_uri=${encodeURIComponent(REDIRECT)}`,
      `redirect_uri=${encodeURIComponent(REDIRECT)}&state=abc&state=def`,
      `redirect_uri=${encodeURIComponent(REDIRECT)}&redirect_uri=${encodeURIComponent('https://evil.example/')}&state=abc`,
    ]) {
      assertErrorPageNoRedirect(await http({ method: 'GET', path: `/oauth/authorize?${q}` }));
    }
  });

  test('localhost and 127.0.0.1, http or https, any port and path, and "/" are accepted redirect addresses', async () => {
    for (const uri of ['http://localhost/', 'https://localhost:8443/a/b?x=1', 'http://127.0.0.1:65535/cb', 'https://127.0.0.1/', '/']) {
      const res = await http({ method: 'GET', path: authorizePath({ redirectUri: uri, state: 'abc' }) });
      assert.equal(res.status, 200, `${uri}: ${res.body}`);
      assert.match(res.body, /action="\/oauth\/login"/);
    }
  });

  test('state must match [a-z0-9]+: anything else gets an error page', async () => {
    for (const state of ['ABC', 'a-b', 'a_b', 'a b', 'abc.', 'é', '<script>']) {
      assertErrorPageNoRedirect(await http({ method: 'GET', path: authorizePath({ redirectUri: REDIRECT, state }) }));
    }
    const ok = await http({ method: 'GET', path: authorizePath({ redirectUri: REDIRECT, state: 'abc123xyz' }) });
    assert.equal(ok.status, 200);
  });

  test('the state comes back unchanged on the redirect', async () => {
    const state = randomState();
    const { params } = await authorize(http, { ...USERS.olivia, redirectUri: REDIRECT, state });
    assert.equal(params.get('state'), state);
  });

  test('the redirect keeps the address\'s own path and query, and its own code/state parameters are overridden', async () => {
    const uri = 'http://localhost:7777/cb/path?keep=1&code=injected&state=injected';
    const r = await authorize(http, { ...USERS.olivia, redirectUri: uri, state: 'mystate' });
    const u = new URL(r.location);
    assert.equal(u.origin, 'http://localhost:7777');
    assert.equal(u.pathname, '/cb/path');
    assert.equal(u.searchParams.get('keep'), '1');
    assert.deepEqual(u.searchParams.getAll('code'), [r.code]);
    assert.notEqual(r.code, 'injected');
    assert.deepEqual(u.searchParams.getAll('state'), ['mystate']);
  });

  test('Deny redirects with error=access_denied and the state, and issues no code', async () => {
    const before = await countCodes();
    const r = await authorize(http, { ...USERS.olivia, redirectUri: REDIRECT, state: 'denied1', decision: 'deny' });
    assert.ok(r.location.startsWith(`${REDIRECT}?`), r.location);
    assert.equal(r.params.get('error'), 'access_denied');
    assert.equal(r.params.get('state'), 'denied1');
    assert.equal(r.params.get('code'), null);
    assert.equal(await countCodes(), before);
  });

  test('redirect_uri "/" sends the code to the service\'s own page, which shows it; that code exchanges with "/"', async () => {
    const { verifier, challenge } = pkcePair();
    const r = await authorize(http, { ...USERS.olivia, redirectUri: '/', state: 'copy1', codeChallenge: challenge });
    assert.ok(r.location.startsWith('/?'), r.location);
    const page = await http({ method: 'GET', path: r.location });
    assert.equal(page.status, 200);
    assert.match(page.body, new RegExp(`<code id="code">${r.code}</code>`));
    assert.match(page.body, /copy1/);
    const res = await exchangeCode(http, r.code!, '/', verifier);
    assert.equal(res.status, 200, res.body);
  });

  test('the session cookie is HttpOnly and SameSite=Lax', async () => {
    const agent = new UserAgent(http);
    await agent.get(authorizePath({ redirectUri: REDIRECT, state: 'abc' }));
    assert.equal(agent.lastSetCookie.length, 1);
    assert.match(agent.lastSetCookie[0]!, /HttpOnly/i);
    assert.match(agent.lastSetCookie[0]!, /SameSite=Lax/i);
    assert.match(agent.lastSetCookie[0]!, /Path=\//i);
  });

  test('signing in replaces the session cookie and its CSRF token (no session fixation)', async () => {
    const agent = new UserAgent(http);
    const path = authorizePath({ redirectUri: REDIRECT, state: 'abc' });
    const page = await agent.get(path);
    const anonCookie = agent.cookies.get('sb_session');
    const anonCsrf = hiddenFieldsOf(page.body).csrf;
    const approve = await signIn(agent, path, USERS.olivia.email, USERS.olivia.password);
    assert.notEqual(agent.cookies.get('sb_session'), anonCookie);
    assert.notEqual(hiddenFieldsOf(approve.body).csrf, anonCsrf);
    // The anonymous cookie is no longer a session that can approve.
    const stale = new UserAgent(http);
    stale.cookies.set('sb_session', anonCookie!);
    const res = await stale.postForm('/oauth/authorize', { ...hiddenFieldsOf(approve.body), csrf: anonCsrf, decision: 'allow' });
    assert.equal(res.status, 403);
    assert.equal(header(res, 'location'), undefined);
  });
});

describe('CSRF on the authorize forms', () => {
  async function signedInAgent() {
    const agent = new UserAgent(http);
    const approve = await signIn(agent, authorizePath({ redirectUri: REDIRECT, state: 'csrf1' }), USERS.olivia.email, USERS.olivia.password);
    return { agent, fields: hiddenFieldsOf(approve.body) };
  }

  test('POST /oauth/authorize without a csrf field answers 403 and issues no code', async () => {
    const { agent, fields } = await signedInAgent();
    const before = await countCodes();
    const { csrf: _csrf, ...withoutCsrf } = fields;
    const res = await agent.postForm('/oauth/authorize', { ...withoutCsrf, decision: 'allow' });
    assertErrorPageNoRedirect(res, 403);
    assert.equal(await countCodes(), before);
  });

  test('POST /oauth/authorize with a wrong csrf (or another session\'s) answers 403 and issues no code', async () => {
    const { agent, fields } = await signedInAgent();
    const other = await signedInAgent();
    const before = await countCodes();
    for (const csrf of ['wrong', '', fields.csrf!.slice(0, -1), other.fields.csrf!]) {
      const res = await agent.postForm('/oauth/authorize', { ...fields, csrf, decision: 'allow' });
      assertErrorPageNoRedirect(res, 403);
    }
    // Deny is protected too: no redirect with access_denied either.
    const deny = await agent.postForm('/oauth/authorize', { ...fields, csrf: 'wrong', decision: 'deny' });
    assertErrorPageNoRedirect(deny, 403);
    assert.equal(await countCodes(), before);
    // The right one still works.
    const ok = await agent.postForm('/oauth/authorize', { ...fields, decision: 'allow' });
    assert.equal(ok.status, 303);
    assert.equal(await countCodes(), before + 1);
  });

  test('POST /oauth/authorize without a signed-in session answers 403, even with a valid csrf of an anonymous session', async () => {
    const agent = new UserAgent(http);
    const page = await agent.get(authorizePath({ redirectUri: REDIRECT, state: 'abc' }));
    const res = await agent.postForm('/oauth/authorize', { ...hiddenFieldsOf(page.body), decision: 'allow' });
    assertErrorPageNoRedirect(res, 403);
  });

  test('POST /oauth/login without or with a wrong csrf answers 403 and does not sign in', async () => {
    const agent = new UserAgent(http);
    const path = authorizePath({ redirectUri: REDIRECT, state: 'abc' });
    const page = await agent.get(path);
    const fields = hiddenFieldsOf(page.body);
    const { csrf: _csrf, ...withoutCsrf } = fields;
    for (const form of [withoutCsrf, { ...fields, csrf: 'wrong' }]) {
      const res = await agent.postForm('/oauth/login', { ...form, ...USERS.olivia });
      assertErrorPageNoRedirect(res, 403);
    }
    const again = await agent.get(path);
    assert.match(again.body, /action="\/oauth\/login"/, 'still the sign-in page');
  });

  test('POST /oauth/authorize to a foreign redirect_uri answers an error page, never a redirect, and issues no code', async () => {
    const { agent, fields } = await signedInAgent();
    const before = await countCodes();
    for (const uri of ['https://evil.example/cb', 'http://localhost.evil.com/']) {
      for (const decision of ['allow', 'deny']) {
        const res = await agent.postForm('/oauth/authorize', { ...fields, redirect_uri: uri, decision });
        assertErrorPageNoRedirect(res);
      }
    }
    const plain = await agent.postForm('/oauth/authorize', {
      ...fields,
      code_challenge: pkcePair().verifier,
      code_challenge_method: 'plain',
      decision: 'allow',
    });
    assertErrorPageNoRedirect(plain);
    assert.equal(await countCodes(), before);
  });
});

describe('access tokens', () => {
  let privateJwk: JWK;
  let pair: TokenPair;
  before(async () => {
    const rows = await db.sql.query<{ private_jwk: JWK }>('SELECT private_jwk FROM signing_keys');
    assert.equal(rows.length, 1);
    privateJwk = rows[0]!.private_jwk;
    pair = await operatorTokens(USERS.olivia.email);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const claims = () => ({
    iss: PUBLIC_URL,
    aud: PUBLIC_URL,
    sub: `urn:svc:user:${userIds[USERS.olivia.email]}`,
    jti: crypto.randomUUID(),
    iat: now(),
    exp: now() + 3600,
  });
  /** Signed with the service's own private key. */
  const forge = async (payload: Record<string, unknown>, header: Record<string, unknown> = {}) =>
    new SignJWT(payload)
      .setProtectedHeader({ alg: 'ES256', kid: privateJwk.kid, typ: 'at+jwt', ...header } as { alg: string })
      .sign(await importJWK(privateJwk, 'ES256'));
  const hs256 = (secret: Buffer | string, kid?: string) => {
    const input = `${b64({ alg: 'HS256', typ: 'at+jwt', kid })}.${b64(claims())}`;
    return `${input}.${crypto.createHmac('sha256', secret).update(input).digest('base64url')}`;
  };

  test('a token signed with the service key passes (control for the forgeries below)', async () => {
    await assertAccepted(await forge(claims()));
  });

  test('a token with alg none answers 401 on both APIs', async () => {
    await assertRejected(`${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(claims())}.`);
    await assertRejected(`${b64({ alg: 'none', typ: 'at+jwt', kid: privateJwk.kid })}.${b64(claims())}.`);
  });

  test('a token with alg HS256 signed with the public key bytes (or any secret) answers 401', async () => {
    const { d: _d, ...publicJwk } = privateJwk;
    const pub = crypto.createPublicKey({ key: publicJwk as crypto.JsonWebKey, format: 'jwk' });
    const pem = pub.export({ type: 'spki', format: 'pem' });
    const der = pub.export({ type: 'spki', format: 'der' });
    const jwks = json(await http({ method: 'GET', path: '/oauth/jwks' }));
    for (const secret of [pem, der, JSON.stringify(jwks.keys[0]), 'secret']) {
      await assertRejected(hs256(secret, privateJwk.kid));
    }
  });

  test('a token from another issuer or for another audience answers 401 even with the service key', async () => {
    await assertRejected(await forge({ ...claims(), iss: 'https://evil.example' }));
    await assertRejected(await forge({ ...claims(), iss: `${PUBLIC_URL}/` }));
    await assertRejected(await forge({ ...claims(), aud: 'https://evil.example' }));
  });

  test('a token whose payload was tampered with answers 401', async () => {
    const [h, p, s] = pair.access_token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    payload.sub = `urn:svc:user:${userIds[USERS.mark.email]}`;
    await assertRejected(`${h}.${b64(payload)}.${s}`);
    payload.sub = `urn:svc:user:${userIds[USERS.olivia.email]}`;
    payload.exp += 3600;
    await assertRejected(`${h}.${b64(payload)}.${s}`);
  });

  test('an expired token, a token of another type, or without sub/exp answers 401', async () => {
    await assertRejected(await forge({ ...claims(), iat: now() - 7200, exp: now() - 1 }));
    await assertRejected(await forge(claims(), { typ: 'JWT' }));
    await assertRejected(await forge({ ...claims(), sub: `urn:svc:account:${userIds[USERS.olivia.email]}` }));
    const { sub: _sub, ...noSub } = claims();
    await assertRejected(await forge(noSub));
    const { exp: _exp, ...noExp } = claims();
    await assertRejected(await forge(noExp));
    await assertRejected(await forge(claims(), { kid: 'unknown-kid' }));
  });

  test('a missing, malformed or non-Bearer authorization answers 401', async () => {
    for (const authorization of [undefined, 'Bearer', 'Bearer ', `Basic ${pair.access_token}`, `Bearer ${pair.access_token}x`, 'Bearer a.b.c']) {
      const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
      const res = await http({ method: 'GET', path: '/api/isLogged', headers });
      assert.equal(res.status, 401, String(authorization));
      assert.equal(json(res).code, 'unauthorized');
    }
  });

  test('a refresh token cannot authenticate API calls', async () => {
    await assertRejected(pair.refresh_token);
  });

  test('a JWT signed by the service verifies with jose against /oauth/jwks: typ at+jwt, iss PUBLIC_URL, sub user URN, exp-iat 10800', async () => {
    const jwks = json(await http({ method: 'GET', path: '/oauth/jwks' }));
    const { payload, protectedHeader } = await jwtVerify(pair.access_token, createLocalJWKSet(jwks), {
      issuer: PUBLIC_URL,
      typ: 'at+jwt',
      algorithms: ['ES256'],
    });
    assert.equal(protectedHeader.alg, 'ES256');
    assert.equal(protectedHeader.typ, 'at+jwt');
    assert.equal(protectedHeader.kid, jwks.keys[0].kid);
    assert.equal(payload.iss, PUBLIC_URL);
    assert.equal(payload.sub, `urn:svc:user:${userIds[USERS.olivia.email]}`);
    assert.equal(payload.sub, pair.user_id);
    assert.equal(payload.exp! - payload.iat!, 10800);
    assert.ok(Math.abs(payload.iat! - now()) < 60);
    assert.equal(typeof payload.jti, 'string');
    // RFC 9068 requires aud and client_id too.
    assert.ok(payload.aud);
    assert.equal(typeof payload.client_id, 'string');
    assert.equal(decodeProtectedHeader(pair.access_token).kid, privateJwk.kid);
  });
});

describe('token endpoint', () => {
  test('JSON and form bodies are both accepted at /oauth/token (code exchange and refresh)', async () => {
    const { code, verifier } = await codeFor();
    const post = (body: object) =>
      http({ method: 'POST', path: '/oauth/token', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const first = await post({ grant_type: 'authorization_code', code, authorization_code: REDIRECT, code_verifier: verifier });
    assert.equal(first.status, 200, first.body);
    const second = await post({ grant_type: 'refresh_token', refresh_token: json(first).refresh_token });
    assert.equal(second.status, 200, second.body);
    const third = await refresh(http, json(second).refresh_token);
    assert.equal(third.status, 200, third.body);
    await assertAccepted(json(third).access_token);
  });

  test('an unsupported grant_type answers 400 {error: unsupported_grant_type}', async () => {
    for (const grant_type of ['password', 'client_credentials', 'implicit', 'urn:ietf:params:oauth:grant-type:jwt-bearer']) {
      const res = await tokenRequest(http, { grant_type, username: USERS.olivia.email, password: USERS.olivia.password });
      assert.equal(res.status, 400);
      assert.equal(json(res).error, 'unsupported_grant_type');
      assert.equal(typeof json(res).error_description, 'string');
    }
  });

  test('a missing grant_type or an empty body answers 400 invalid_request (never 5xx)', async () => {
    for (const req of [
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' },
      { headers: { 'content-type': 'application/json' }, body: '{}' },
      { headers: { 'content-type': 'application/json' }, body: '{"grant_type":' },
      { headers: { 'content-type': 'application/json' }, body: '[]' },
    ]) {
      const res = await http({ method: 'POST', path: '/oauth/token', ...req });
      assert.equal(res.status, 400, `${req.body}: ${res.body}`);
      assert.equal(json(res).error, 'invalid_request');
    }
  });

  test('a used, unknown or empty refresh token: used/unknown answer 401 {errorCode: unauthorized, error: invalid_grant}', async () => {
    const p = await operatorTokens(USERS.olivia.email);
    assert.equal((await refresh(http, p.refresh_token)).status, 200);
    for (const token of [p.refresh_token, 'unknown-token', p.access_token]) {
      const res = await refresh(http, token);
      assert.equal(res.status, 401);
      assert.equal(json(res).errorCode, 'unauthorized');
      assert.equal(json(res).error, 'invalid_grant');
    }
    const empty = await refresh(http, '');
    assert.equal(empty.status, 400);
    assert.equal(json(empty).error, 'invalid_request');
  });

  test('refresh tokens are stored hashed: the database never holds one in clear', async () => {
    const p = await operatorTokens(USERS.olivia.email);
    const rows = await db.sql.query<{ token_hash: string }>('SELECT token_hash FROM refresh_tokens');
    assert.ok(rows.every((r) => r.token_hash !== p.refresh_token));
    assert.ok(rows.some((r) => r.token_hash === crypto.createHash('sha256').update(p.refresh_token).digest('hex')));
  });

  test('an 11th valid refresh token revokes the user\'s oldest: the oldest gets 401, the 2nd oldest still works', async () => {
    const pairs: TokenPair[] = [];
    for (let i = 0; i < 11; i++) pairs.push(await operatorTokens(USERS.rita.email));
    const valid = await core.store.repos.oauth.countValidRefreshTokens(userIds[USERS.rita.email]!, core.clock.now());
    assert.equal(valid, 10);
    const oldest = await refresh(http, pairs[0]!.refresh_token);
    assert.equal(oldest.status, 401, oldest.body);
    assert.equal(json(oldest).error, 'invalid_grant');
    const second = await refresh(http, pairs[1]!.refresh_token);
    assert.equal(second.status, 200, second.body);
    // The newest ones are untouched too.
    for (const p of pairs.slice(2)) assert.equal((await refresh(http, p.refresh_token)).status, 200);
    // Revocation never touched access tokens.
    await assertAccepted(pairs[0]!.access_token);
  });

  test('the limit of 10 also holds for tokens obtained through the code flow', async () => {
    const pairs: TokenPair[] = [];
    for (let i = 0; i < 11; i++) pairs.push(await obtainTokens(http, USERS.tom.email, USERS.tom.password));
    assert.equal(await core.store.repos.oauth.countValidRefreshTokens(userIds[USERS.tom.email]!, core.clock.now()), 10);
    assert.equal((await refresh(http, pairs[0]!.refresh_token)).status, 401);
    assert.equal((await refresh(http, pairs[1]!.refresh_token)).status, 200);
  });

  test('POST /oauth/revoke makes a refresh token unusable (form and JSON bodies; unknown tokens answer 200)', async () => {
    const a = await operatorTokens(USERS.olivia.email);
    const b = await operatorTokens(USERS.olivia.email);
    const form = await http({
      method: 'POST',
      path: '/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: a.refresh_token, token_type_hint: 'refresh_token' }).toString(),
    });
    assert.equal(form.status, 200, form.body);
    const viaJson = await http({
      method: 'POST',
      path: '/oauth/revoke',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: b.refresh_token }),
    });
    assert.equal(viaJson.status, 200);
    for (const p of [a, b]) {
      const res = await refresh(http, p.refresh_token);
      assert.equal(res.status, 401);
      assert.equal(json(res).error, 'invalid_grant');
    }
    const unknown = await http({
      method: 'POST',
      path: '/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=never-issued',
    });
    assert.equal(unknown.status, 200);
  });

  test('consuming a refresh token does not invalidate existing access tokens', async () => {
    const first = await operatorTokens(USERS.olivia.email);
    const other = await operatorTokens(USERS.olivia.email);
    const res = await refresh(http, first.refresh_token);
    assert.equal(res.status, 200);
    const second = json(res) as TokenPair;
    assert.notEqual(second.access_token, first.access_token);
    assert.notEqual(second.refresh_token, first.refresh_token);
    await assertAccepted(first.access_token);
    await assertAccepted(other.access_token);
    await assertAccepted(second.access_token);
    // ...and does not consume the user's other refresh tokens.
    assert.equal((await refresh(http, other.refresh_token)).status, 200);
  });
});

describe('sign-in throttling', () => {
  test('5 wrong passwords for one account: the 6th attempt, even with the right password, answers 429 with Retry-After', async () => {
    const agent = new UserAgent(http);
    const page = await agent.get(authorizePath({ redirectUri: REDIRECT, state: 'abc' }));
    const fields = hiddenFieldsOf(page.body);
    for (let i = 0; i < 5; i++) {
      const res = await agent.postForm('/oauth/login', { ...fields, email: USERS.vera.email, password: `wrong-${i}` });
      assert.equal(res.status, 401, `attempt ${i + 1}`);
      assert.match(res.body, /role="alert"/);
      assert.equal(header(res, 'location'), undefined);
    }
    const sixth = await agent.postForm('/oauth/login', { ...fields, email: USERS.vera.email, password: USERS.vera.password });
    assert.equal(sixth.status, 429, sixth.body);
    const retryAfter = Number(header(sixth, 'retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
    assert.equal(header(sixth, 'location'), undefined);
    // The lock is per account, and matches the address case-insensitively.
    const upper = await agent.postForm('/oauth/login', { ...fields, email: USERS.vera.email.toUpperCase(), password: USERS.vera.password });
    assert.equal(upper.status, 429);
    // Another account from the same address still signs in.
    const other = await obtainTokens(http, USERS.mark.email, USERS.mark.password);
    await assertAccepted(other.access_token);
  });
});

describe('sign-in throttling under concurrency', () => {
  test('20 concurrent wrong passwords for one account: at most 5 are checked (401), the rest answer 429', async () => {
    const agent = new UserAgent(http);
    const page = await agent.get(authorizePath({ redirectUri: REDIRECT, state: 'abc' }));
    const fields = hiddenFieldsOf(page.body);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => agent.postForm('/oauth/login', { ...fields, email: USERS.sam.email, password: `wrong-${i}` })),
    );
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 401).length, 5, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, 15, statuses.join(','));
    const right = await agent.postForm('/oauth/login', { ...fields, ...USERS.sam });
    assert.equal(right.status, 429);
  });
});

describe('sign-in throttling per address', () => {
  test('successful sign-ins do not count against the address: 25 in a row from one address all succeed', async () => {
    for (let i = 0; i < 25; i++) {
      const r = await authorize(http, { ...USERS.mark, redirectUri: REDIRECT });
      assert.ok(r.code, `sign-in ${i + 1}`);
    }
    const row = await core.store.repos.throttle.get('address:127.0.0.1');
    assert.ok(row && row.failures < 20 && row.lockedUntil === null, JSON.stringify(row));
  });
});

describe('discovery documents', () => {
  test('/oauth/jwks lists the public ES256 signing key (no private part)', async () => {
    const res = await http({ method: 'GET', path: '/oauth/jwks' });
    assert.equal(res.status, 200);
    const { keys } = json(res);
    assert.equal(keys.length, 1);
    const [k] = keys;
    assert.equal(k.kty, 'EC');
    assert.equal(k.crv, 'P-256');
    assert.equal(k.alg, 'ES256');
    assert.equal(k.use, 'sig');
    assert.equal(typeof k.kid, 'string');
    assert.equal(typeof k.x, 'string');
    assert.equal(typeof k.y, 'string');
    assert.equal(k.d, undefined);
  });

  test('/.well-known/oauth-authorization-server has the RFC 8414 fields', async () => {
    const res = await http({ method: 'GET', path: '/.well-known/oauth-authorization-server' });
    assert.equal(res.status, 200);
    assert.match(String(header(res, 'content-type')), /^application\/json/);
    const m = json(res);
    assert.equal(m.issuer, PUBLIC_URL);
    assert.equal(m.authorization_endpoint, `${PUBLIC_URL}/oauth/authorize`);
    assert.equal(m.token_endpoint, `${PUBLIC_URL}/oauth/token`);
    assert.equal(m.jwks_uri, `${PUBLIC_URL}/oauth/jwks`);
    assert.equal(m.revocation_endpoint, `${PUBLIC_URL}/oauth/revoke`);
    assert.deepEqual(m.response_types_supported, ['code']);
    assert.deepEqual([...m.grant_types_supported].sort(), ['authorization_code', 'refresh_token']);
    assert.deepEqual(m.code_challenge_methods_supported, ['S256']);
    assert.ok(m.token_endpoint_auth_methods_supported.includes('none'));
    // The issuer has no query or fragment (RFC 8414 §2).
    const issuer = new URL(m.issuer);
    assert.equal(issuer.search + issuer.hash, '');
  });

  test('the documents need no authentication', async () => {
    for (const path of ['/oauth/jwks', '/.well-known/oauth-authorization-server']) {
      const res = await http({ method: 'GET', path, headers: { authorization: 'Bearer garbage' } });
      assert.equal(res.status, 200, path);
    }
  });
});
