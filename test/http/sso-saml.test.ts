// SAML 2.0 single sign-on at the HTTP level (docs/identity.md "SAML", docs/decisions.md "SAML
// sign-in"): the settings validated strictly (a 400 naming the field), the IdP's metadata read,
// the SP metadata served; then sign-ins against a real SAML IdP on loopback (test/support/
// saml-idp.ts) driven request by request: the AuthnRequest, the ACS, the finish step in the
// browser that started. Every refusal (bad signature, expired, wrong audience, wrong recipient,
// replay, unknown InResponseTo, another browser, IdP down, no SAML) is a page with a 4xx/503,
// never a 5xx, creates no user, and its audit record names its own reason.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { assertProblem, caller } from '../support/projects.ts';
import { header, hiddenFieldsOf, injectTransport, pkcePair, randomState, authorizePath, UserAgent } from '../support/oauth-client.ts';
import { samlResponse, startTestSamlIdp, SAML_IDP_CERT, type TestSamlIdp } from '../support/saml-idp.ts';
import { postAcs as postAcsOf, requestAtIdp as requestAtIdpOf, startSignIn as startSignInAt } from '../support/saml-flow.ts';
import { startSilentIdp } from '../support/oidc-idp.ts';
import { confirmSsoDomain } from '../../src/modules/sso/core/index.ts';

const ACME = 'a5600000-0000-4000-8000-000000000001';
const DOWN = 'a5600000-0000-4000-8000-000000000002';
const OIDC = 'a5600000-0000-4000-8000-000000000003';
const SURVEYORS = 'c5600000-0000-4000-8000-000000000001';
const PUBLIC = 'http://localhost:8080';
const ACS = `${PUBLIC}/sso/saml/${ACME}/acs`;
const SP_ENTITY = `${PUBLIC}/sso/saml/${ACME}/metadata`;

let t: TestApp;
let idp: TestSamlIdp;
let silent: { issuer: string; close(): Promise<void> };
let owner: ReturnType<typeof caller>;

before(async () => {
  t = await testApp({ PUBLIC_URL: PUBLIC, SSO_IDP_TIMEOUT: '1' });
  [idp, silent] = await Promise.all([startTestSamlIdp(), startSilentIdp()]);
  await t.seed({
    users: [
      { email: 'owner@acme.test', password: 'owner-password-1' },
      { email: 'owner@down.test', password: 'owner-password-1' },
      { email: 'owner@oidc.test', password: 'owner-password-1' },
    ],
    accounts: [
      { id: ACME, name: 'Acme', owner: 'owner@acme.test', subscriptions: [{ name: 'Basic' }], groups: [{ id: SURVEYORS, name: 'Surveyors', users: [] }] },
      { id: DOWN, name: 'Down', owner: 'owner@down.test', subscriptions: [{ name: 'Basic' }] },
      { id: OIDC, name: 'Oidc', owner: 'owner@oidc.test', subscriptions: [{ name: 'Basic' }] },
    ],
  });
  owner = caller(t, (await t.tokens('owner@acme.test')).access_token);
  const claimed = await owner('POST', `/api/2/accounts/${ACME}/sso/domains`, { domain: 'acme.test' });
  await confirmSsoDomain({ store: t.core.store, clock: t.core.clock }, 'acme.test', claimed.body.verificationToken);
  const down = caller(t, (await t.tokens('owner@down.test')).access_token);
  assert.equal((await down('PUT', `/api/2/accounts/${DOWN}/sso/provider`, {
    protocol: 'saml', displayName: 'Down IdP', saml: { entityId: 'urn:down', ssoUrl: `${silent.issuer}/sso`, certificates: [SAML_IDP_CERT] },
  })).status, 200);
  const downClaim = await down('POST', `/api/2/accounts/${DOWN}/sso/domains`, { domain: 'down.test' });
  await confirmSsoDomain({ store: t.core.store, clock: t.core.clock }, 'down.test', downClaim.body.verificationToken);
  idp.users.set('sam', { email: 'sam@acme.test', firstName: 'Sam', lastName: 'Surveyor', groups: ['surveyors'] });
});

after(async () => {
  await Promise.allSettled([idp?.close(), silent?.close()]);
  await t?.close();
});

const A = `/api/2/accounts/${ACME}/sso`;
const SAML = () => ({ protocol: 'saml', displayName: 'Acme SAML', saml: { metadataXml: idp.metadataXml } });

test('a SAML provider is set from the IdP metadata; the answer gives the SP entity ID, ACS and metadata URLs to enter at the IdP', async () => {
  const put = await owner('PUT', `${A}/provider`, SAML());
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.equal(put.body.protocol, 'saml');
  assert.equal(put.body.issuer, idp.entityId);
  assert.equal(put.body.clientId, SP_ENTITY);
  assert.equal(put.body.saml.ssoUrl, idp.ssoUrl);
  assert.equal(put.body.saml.acsUrl, ACS);
  assert.equal(put.body.saml.spEntityId, SP_ENTITY);
  assert.equal(put.body.saml.certificates.length, 1);
  assert.match(put.body.saml.certificates[0].subject, /Scanbase test SAML IdP \(idp\)/);
  assert.equal(put.body.saml.attributes.email, 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress');
  assert.equal((await owner('POST', `${A}/rules`, { claim: 'groups', value: 'surveyors', group: SURVEYORS })).status, 201);
  const metadata = await t.app.inject({ method: 'GET', url: `/sso/saml/${ACME}/metadata` });
  assert.equal(metadata.statusCode, 200);
  assert.match(metadata.headers['content-type'] as string, /samlmetadata\+xml/);
  assert.ok(metadata.body.includes(`entityID="${SP_ENTITY}"`), metadata.body);
  assert.ok(metadata.body.includes(`Location="${ACS}"`), metadata.body);
  assert.equal((await t.app.inject({ method: 'GET', url: `/sso/saml/${OIDC}/metadata` })).statusCode, 404);
});

test('bad SAML settings are refused with 400 naming the field, and nothing is stored', async () => {
  const before = (await owner('GET', A)).body.provider;
  const good = { entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificates: [SAML_IDP_CERT] };
  const cases: [Record<string, unknown>, string][] = [
    [{ protocol: 'saml', displayName: 'x', saml: { ...good, certificates: ['MIIBnotacertificate'] } }, 'saml.certificates[0]'],
    [{ protocol: 'saml', displayName: 'x', saml: { ...good, certificates: [SAML_IDP_CERT.replace(/[A-Za-z]{10}\n/, 'AAAAAAAAAA\n')] } }, 'saml.certificates[0]'],
    [{ protocol: 'saml', displayName: 'x', saml: { ...good, ssoUrl: 'http://idp.example.com/sso' } }, 'saml.ssoUrl'],
    [{ protocol: 'saml', displayName: 'x', saml: { ...good, entityId: 'not a uri' } }, 'saml.entityId'],
    [{ protocol: 'saml', displayName: 'x', saml: { ssoUrl: idp.ssoUrl, certificates: [SAML_IDP_CERT] } }, 'saml.entityId'],
    [{ protocol: 'saml', displayName: 'x', saml: { ...good, metadataXml: '<html/>' } }, 'saml.metadataXml'],
    [{ protocol: 'saml', displayName: 'x', issuer: 'https://idp.example.com', saml: good }, 'issuer'],
    [{ protocol: 'saml', displayName: 'x' }, 'saml'],
    [{ displayName: 'x', issuer: 'https://idp.example.com', clientId: 'c', saml: good }, 'saml'],
  ];
  for (const [body, field] of cases) {
    const p = assertProblem(await owner('PUT', `${A}/provider`, body), 400, 'invalid-input');
    assert.equal(p.errorValues.field, field, JSON.stringify(p));
  }
  // Unknown fields, at every level, are refused by the schema.
  assertProblem(await owner('PUT', `${A}/provider`, { ...SAML(), saml: { ...good, signed: 'never' } }), 400, 'invalid-input');
  assertProblem(await owner('PUT', `${A}/provider`, { ...SAML(), saml: { ...good, attributes: { role: 'x' } } }), 400, 'invalid-input');
  assert.deepEqual((await owner('GET', A)).body.provider, before);
});

const startSignIn = (email = 'sam@acme.test') => startSignInAt(t.app, email);
const requestAtIdp = () => requestAtIdpOf(t.app, 'sam@acme.test', idp.ssoUrl);
const postAcs = (agent: UserAgent, response: string, account = ACME) => postAcsOf(agent, account, response);

/** The newest audit records' targets. */
const lastAuditTargets = async (n = 3) => (await t.core.store.repos.audit.page({}, null, n)).flatMap((r) => r.targets);

test('SP-initiated sign-in: AuthnRequest by redirect, signed assertion at the ACS, the same browser finishes it; the user is created just in time in the mapped group', async () => {
  const { agent, request } = await requestAtIdp();
  assert.equal(request.acsUrl, ACS);
  assert.equal(request.issuer, SP_ENTITY);
  const response = samlResponse({ entityId: idp.entityId, acsUrl: ACS, audience: SP_ENTITY, inResponseTo: request.id, user: idp.users.get('sam')! });
  const acs = await postAcs(agent, response);
  assert.equal(acs.status, 303, acs.body);
  const finish = await agent.get(header(acs, 'location')!);
  assert.equal(finish.status, 303, finish.body);
  assert.match(header(finish, 'location')!, /^\/oauth\/authorize\?/);
  const approve = await agent.get(header(finish, 'location')!);
  assert.match(approve.body, /Signed in as <strong>sam@acme\.test<\/strong>/);
  const user = await t.core.store.repos.users.byEmail('sam@acme.test');
  assert.ok(user, 'created just in time');
  assert.equal(user.firstName, 'Sam');
  const groups = await t.core.store.repos.groups.listByAccount(ACME);
  assert.deepEqual(groups.find((g) => g.id === SURVEYORS)?.userIds, [user.id]);
  const [record] = await t.core.store.repos.audit.page({}, null, 1);
  assert.equal(record!.outcome, 'signed-in');
  assert.equal(record!.userId, user.id);
});

/** Posts a response to the ACS and checks the refusal: its status, its page, no user, the audit reason. */
async function refused(response: string, agent: UserAgent, status: number, reason: string, text: RegExp) {
  const res = await postAcs(agent, response);
  assert.equal(res.status, status, res.body);
  assert.match(res.headers['content-type'] as string, /text\/html/);
  assert.match(res.body, text);
  assert.ok((await lastAuditTargets()).includes(`reason=sso:${reason}`), `audit reason sso:${reason}: ${JSON.stringify(await lastAuditTargets())}`);
}

test('an assertion signed with another key than the configured certificate is refused (reason signature)', async () => {
  const { agent, request } = await requestAtIdp();
  const { generateKeyPairSync } = await import('node:crypto');
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const forged = samlResponse({ entityId: idp.entityId, acsUrl: ACS, audience: SP_ENTITY, inResponseTo: request.id, user: { email: 'eve@acme.test' }, key });
  await refused(forged, agent, 403, 'signature', /signature does not verify/);
  assert.equal(await t.core.store.repos.users.byEmail('eve@acme.test'), null);
});

test('an expired assertion is refused beyond the clock skew (reason expired)', async () => {
  const { agent, request } = await requestAtIdp();
  const old = samlResponse({ entityId: idp.entityId, acsUrl: ACS, audience: SP_ENTITY, inResponseTo: request.id, user: { email: 'old@acme.test' }, notOnOrAfterMs: Date.now() - 3 * 60_000 });
  await refused(old, agent, 403, 'expired', /expired/);
  assert.equal(await t.core.store.repos.users.byEmail('old@acme.test'), null);
});

test('an assertion within the 2-minute clock skew after its NotOnOrAfter is still accepted', async () => {
  const { agent, request } = await requestAtIdp();
  const late = samlResponse({ entityId: idp.entityId, acsUrl: ACS, audience: SP_ENTITY, inResponseTo: request.id, user: { email: 'late@acme.test' }, notOnOrAfterMs: Date.now() - 30_000 });
  assert.equal((await postAcs(agent, late)).status, 303);
});

test('an assertion for another audience is refused (reason audience)', async () => {
  const { agent, request } = await requestAtIdp();
  const other = samlResponse({ entityId: idp.entityId, acsUrl: ACS, audience: 'https://other-sp.example.com', inResponseTo: request.id, user: { email: 'aud@acme.test' } });
  await refused(other, agent, 403, 'audience', /meant for another service/);
});

test('an assertion addressed to another ACS URL is refused (reason recipient)', async () => {
  const { agent, request } = await requestAtIdp();
  const other = samlResponse({ entityId: idp.entityId, acsUrl: 'https://other-sp.example.com/acs', audience: SP_ENTITY, inResponseTo: request.id, user: { email: 'rcp@acme.test' } });
  await refused(other, agent, 403, 'recipient', /not this account's ACS URL|addressed to/);
});

test('a replayed assertion is refused: its ID is accepted once, in the database (reason replay)', async () => {
  const { agent, request } = await requestAtIdp();
  const response = samlResponse({ entityId: idp.entityId, acsUrl: ACS, audience: SP_ENTITY, inResponseTo: request.id, user: idp.users.get('sam')! });
  assert.equal((await postAcs(agent, response)).status, 303);
  await refused(response, agent, 400, 'replay', /used already/);
  // Concurrent posts of one fresh assertion: exactly one is accepted.
  const second = await requestAtIdp();
  const fresh = samlResponse({ entityId: idp.entityId, acsUrl: ACS, audience: SP_ENTITY, inResponseTo: second.request.id, user: idp.users.get('sam')! });
  const statuses = (await Promise.all([postAcs(second.agent, fresh), postAcs(second.agent, fresh), postAcs(second.agent, fresh)])).map((r) => r.status).sort();
  assert.deepEqual(statuses, [303, 400, 400]);
});

test('an assertion answering no request this account sent is refused (reason in-response-to), an unsolicited one too', async () => {
  const { agent } = await startSignIn();
  const unknown = samlResponse({ entityId: idp.entityId, acsUrl: ACS, audience: SP_ENTITY, inResponseTo: '_not-a-request-we-sent', user: idp.users.get('sam')! });
  await refused(unknown, agent, 400, 'in-response-to', /answers no sign-in/);
  const unsolicited = samlResponse({ entityId: idp.entityId, acsUrl: ACS, audience: SP_ENTITY, inResponseTo: null, user: idp.users.get('sam')! });
  await refused(unsolicited, agent, 400, 'in-response-to', /answers no sign-in/);
});

test('the finish step in another browser than the one that started is refused (reason browser)', async () => {
  const { agent, request } = await requestAtIdp();
  const response = samlResponse({ entityId: idp.entityId, acsUrl: ACS, audience: SP_ENTITY, inResponseTo: request.id, user: idp.users.get('sam')! });
  const acs = await postAcs(agent, response);
  assert.equal(acs.status, 303);
  const otherBrowser = new UserAgent(injectTransport(t.app));
  const res = await otherBrowser.get(header(acs, 'location')!);
  assert.equal(res.status, 400);
  assert.match(res.body, /different browser/);
  assert.ok((await lastAuditTargets()).includes('reason=sso:browser'));
});

test('garbage at the ACS is a 403 page, never a 5xx; an account without SAML reads no body (404)', async () => {
  const { agent } = await startSignIn();
  for (const junk of ['', 'not base64!', Buffer.from('<notxml').toString('base64'), Buffer.from('<Response/>').toString('base64')]) {
    const res = await postAcs(agent, junk);
    assert.ok(res.status === 403, `${JSON.stringify(junk)} → ${res.status} ${res.body.slice(0, 200)}`);
  }
  assert.equal((await postAcs(agent, 'x', OIDC)).status, 404);
  assert.equal((await postAcs(agent, 'x', 'not-a-uuid')).status, 404);
});

test('an IdP that does not answer gives a clear 503 page at the start, after the timeout (reason idp-unavailable)', async () => {
  const { started } = await startSignIn('dan@down.test');
  assert.equal(started.status, 503, started.body);
  assert.match(started.body, /Identity provider unavailable/);
  assert.ok((await lastAuditTargets()).includes('reason=sso:idp-unavailable'));
});

test('a domain that requires SSO refuses the password form for a SAML account too', async () => {
  assert.equal((await owner('PATCH', `${A}/domains/acme.test`, { requireSso: true })).status, 200);
  const agent = new UserAgent(injectTransport(t.app));
  const page = await agent.get(authorizePath({ redirectUri: '/', state: randomState(), codeChallenge: pkcePair().challenge }));
  const res = await agent.postForm('/oauth/login', { ...hiddenFieldsOf(page.body), email: 'sam@acme.test', password: 'whatever-1' });
  assert.equal(res.status, 403);
  assert.match(res.body, /acme\.test sign in with Acme SAML, not with a password/);
  assert.match(res.body, /Continue with Acme SAML/);
  assert.equal((await owner('PATCH', `${A}/domains/acme.test`, { requireSso: false })).status, 200);
});

test('the periodic sso-logins pass deletes assertion IDs past their NotOnOrAfter (and only those): until then a replay is refused', async () => {
  const repo = t.core.store.repos.sso;
  const now = t.core.clock.nowMs();
  assert.equal(await repo.rememberAssertion({ issuer: 'urn:sweep', assertionId: '_past', accountId: ACME, expiresAt: new Date(now - 1000) }), true);
  assert.equal(await repo.rememberAssertion({ issuer: 'urn:sweep', assertionId: '_live', accountId: ACME, expiresAt: new Date(now + 60_000) }), true);
  assert.ok((await t.core.ssoSignIn.prune()) >= 1);
  assert.equal(await repo.rememberAssertion({ issuer: 'urn:sweep', assertionId: '_live', accountId: ACME, expiresAt: new Date(now + 60_000) }), false, 'still refused');
  assert.equal(await repo.rememberAssertion({ issuer: 'urn:sweep', assertionId: '_past', accountId: ACME, expiresAt: new Date(now + 60_000) }), true, 'swept');
});
