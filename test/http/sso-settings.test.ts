// Single sign-on settings, API 2 (docs/identity.md "Configuration"): account administrators
// only; the client secret goes in, is sealed, and never comes out; domains are verified by the
// operator's confirmation (the admin command's use case) and only a verified domain may require
// SSO; mapping rules name the account's groups and roles; bad input is a clear 400.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, GROUP_ID, OTHER_ACCOUNT_ID, assertProblem, caller, emailOf, projectWorld, urn, type World } from '../support/projects.ts';
import { confirmSsoDomain } from '../../src/modules/sso/core/index.ts';

let t: TestApp;
let w: World;
const SECRET = 'idp-client-secret-4e7f1c9a2b';
const PROVIDER = { displayName: 'Acme Keycloak', issuer: 'https://login.acme.test/realms/acme', clientId: 'scanbase', clientSecret: SECRET };
const O2 = `/api/2/accounts/${OTHER_ACCOUNT_ID}`;

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
});
after(() => t.close());

const confirm = (domain: string, token: string) => confirmSsoDomain({ store: t.core.store, clock: t.core.clock }, domain, token);

test('an administrator sets the IdP; the client secret is sealed at rest and no answer ever shows it', async () => {
  const put = await w.as.administrator!('PUT', `${A2}/sso/provider`, PROVIDER);
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.equal(put.body.hasClientSecret, true);
  assert.deepEqual(put.body.scopes, ['openid', 'email', 'profile']);
  assert.equal(put.body.redirectUri, 'http://localhost:8080/sso/callback');
  // Changed without a secret: the stored one stays.
  const again = await w.as.owner!('PUT', `${A2}/sso/provider`, { ...PROVIDER, clientSecret: undefined, displayName: 'Acme SSO', scopes: ['groups'] });
  assert.equal(again.status, 200);
  assert.equal(again.body.hasClientSecret, true);
  assert.deepEqual(again.body.scopes, ['openid', 'email', 'groups']);
  const read = await w.as.administrator!('GET', `${A2}/sso`);
  assert.equal(read.status, 200);
  assert.equal(read.body.provider.displayName, 'Acme SSO');
  for (const body of [put.body, again.body, read.body]) assert.ok(!JSON.stringify(body).includes(SECRET), 'the secret is never answered');
  const stored = await t.core.store.repos.sso.provider(await accountId());
  assert.ok(stored?.clientSecretSealed && !stored.clientSecretSealed.includes(SECRET), 'sealed, not plain');
  // null: a public client (PKCE only).
  const pub = await w.as.administrator!('PUT', `${A2}/sso/provider`, { ...PROVIDER, clientSecret: null });
  assert.equal(pub.body.hasClientSecret, false);
});

async function accountId(): Promise<string> {
  const res = await w.as.owner!('GET', A2);
  return res.body.id.split(':').at(-1);
}

test('SSO settings are read and changed by account administrators only: others 403, another tenant 404', async () => {
  for (const who of ['projectManager', 'projectLister', 'member', 'viewer'] as const) {
    assertProblem(await w.as[who]!('GET', `${A2}/sso`), 403, 'read-sso-forbidden');
    const write = assertProblem(await w.as[who]!('PUT', `${A2}/sso/provider`, PROVIDER), 403, 'manage-sso-forbidden');
    assert.deepEqual(write.errorValues.requiredPermissions, ['account:administrators:write']);
    assertProblem(await w.as[who]!('POST', `${A2}/sso/domains`, { domain: 'acme.test' }), 403, 'manage-sso-forbidden');
    assertProblem(await w.as[who]!('POST', `${A2}/sso/rules`, { claim: 'groups', value: 'x', accountRole: 'administrator' }), 403, 'manage-sso-forbidden');
  }
  assertProblem(await w.as.outsider!('GET', `${A2}/sso`), 404, 'account-not-found');
  assertProblem(await w.as.administrator!('GET', `${O2}/sso`), 404, 'account-not-found');
});

test('bad provider settings are refused with 400 naming the field, and nothing is stored', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ ...PROVIDER, issuer: 'http://login.acme.test' }, 'issuer'],
    [{ ...PROVIDER, issuer: 'not a url' }, 'issuer'],
    [{ ...PROVIDER, issuer: 'https://login.acme.test/?x=1' }, 'issuer'],
    [{ ...PROVIDER, displayName: '   ' }, 'displayName'],
    [{ ...PROVIDER, scopes: ['bad scope'] }, 'scopes'],
  ];
  const before = (await w.as.owner!('GET', `${A2}/sso`)).body.provider;
  for (const [body, field] of cases) {
    const p = assertProblem(await w.as.administrator!('PUT', `${A2}/sso/provider`, body), 400, 'invalid-input');
    assert.equal(p.errorValues.field, field, JSON.stringify(p));
  }
  assertProblem(await w.as.administrator!('PUT', `${A2}/sso/provider`, { ...PROVIDER, extra: 1 }), 400, 'invalid-input');
  assert.deepEqual((await w.as.owner!('GET', `${A2}/sso`)).body.provider, before);
  // http is allowed for an IdP on this machine only.
  assert.equal((await w.as.administrator!('PUT', `${A2}/sso/provider`, { ...PROVIDER, issuer: 'http://127.0.0.1:9999' })).status, 200);
});

test('a domain is claimed with a token shown once, verified by the operator, and only then may require SSO', async () => {
  await w.as.administrator!('PUT', `${A2}/sso/provider`, PROVIDER);
  assertProblem(await w.as.administrator!('POST', `${A2}/sso/domains`, { domain: 'not a domain' }), 400, 'invalid-input');
  const claimed = await w.as.administrator!('POST', `${A2}/sso/domains`, { domain: 'Acme.Test.' });
  assert.equal(claimed.status, 201, JSON.stringify(claimed.body));
  assert.equal(claimed.body.domain, 'acme.test');
  assert.equal(claimed.body.verified, false);
  assert.match(claimed.body.verificationToken, /^scanbase-domain-/);
  const token: string = claimed.body.verificationToken;
  assertProblem(await w.as.administrator!('POST', `${A2}/sso/domains`, { domain: 'acme.test' }), 409, 'sso-domain-claimed');
  const listed = await w.as.administrator!('GET', `${A2}/sso`);
  assert.ok(!JSON.stringify(listed.body).includes(token), 'the token is shown once');
  assertProblem(await w.as.administrator!('PATCH', `${A2}/sso/domains/acme.test`, { requireSso: true }), 409, 'sso-domain-not-verified');

  // Another account claims the same domain: both claims wait; the operator confirms one.
  const otherOwner = caller(t, (await t.tokens(emailOf('other-owner'))).access_token);
  const other = await otherOwner('POST', `${O2}/sso/domains`, { domain: 'acme.test' });
  assert.equal(other.status, 201, JSON.stringify(other.body));
  await assert.rejects(confirm('acme.test', 'scanbase-domain-wrong'), (e: any) => e.code === 'sso-domain-not-found');
  const verified = await confirm('acme.test', token);
  assert.ok(verified.verifiedAt);
  await assert.rejects(confirm('acme.test', other.body.verificationToken), (e: any) => e.code === 'sso-domain-claimed');
  const required = await w.as.administrator!('PATCH', `${A2}/sso/domains/acme.test`, { requireSso: true });
  assert.equal(required.status, 200, JSON.stringify(required.body));
  assert.equal(required.body.requireSso, true);
  assert.equal(required.body.verified, true);
  assertProblem(await w.as.administrator!('PATCH', `${A2}/sso/domains/nowhere.test`, { requireSso: true }), 404, 'sso-domain-not-found');
  const route = await t.core.ssoSignIn.routeFor('someone@ACME.test');
  assert.equal(route?.displayName, 'Acme Keycloak');
  assert.equal(route?.requireSso, true);
  assert.equal(await t.core.ssoSignIn.routeFor('someone@elsewhere.test'), null);
  assert.equal((await w.as.administrator!('DELETE', `${A2}/sso/domains/acme.test`)).status, 204);
  assert.equal(await t.core.ssoSignIn.routeFor('someone@acme.test'), null);
});

test('mapping rules name a group of the account and/or an account role; bad rules are 400, unknown groups 404', async () => {
  const rule = await w.as.administrator!('POST', `${A2}/sso/rules`, { claim: 'groups', value: 'surveyors', group: urn('group', GROUP_ID), accountRole: 'projectManager' });
  assert.equal(rule.status, 201, JSON.stringify(rule.body));
  assert.equal(rule.body.group, urn('group', GROUP_ID));
  assert.equal(rule.body.accountRole, 'projectManager');
  assertProblem(await w.as.administrator!('POST', `${A2}/sso/rules`, { claim: 'groups', value: 'x' }), 400, 'invalid-input');
  assertProblem(await w.as.administrator!('POST', `${A2}/sso/rules`, { claim: 'nonce', value: 'x', accountRole: 'administrator' }), 400, 'invalid-input');
  assertProblem(await w.as.administrator!('POST', `${A2}/sso/rules`, { claim: 'groups', value: 'x', accountRole: 'owner' }), 400, 'invalid-input');
  assertProblem(await w.as.administrator!('POST', `${A2}/sso/rules`, { claim: 'groups', value: 'x', group: 'c9999999-9999-4999-8999-999999999999' }), 404, 'group-not-found');
  assertProblem(await w.as.administrator!('POST', `${A2}/sso/rules`, { claim: 'groups', value: 'x', group: 'urn:svc:project:nope' }), 400, 'invalid-group-urn');
  const listed = await w.as.owner!('GET', `${A2}/sso`);
  assert.deepEqual(listed.body.rules.map((r: { id: string }) => r.id), [rule.body.id]);
  assert.equal((await w.as.administrator!('DELETE', `${A2}/sso/rules/${rule.body.id}`)).status, 204);
  assertProblem(await w.as.administrator!('DELETE', `${A2}/sso/rules/${rule.body.id}`), 404, 'sso-rule-not-found');
});

test('a mapping rule is changed in place: same id and place in the list, checked like a new rule; others 403, unknown ids 404', async () => {
  const first = await w.as.administrator!('POST', `${A2}/sso/rules`, { claim: 'groups', value: 'drafters', accountRole: 'projectLister' });
  const second = await w.as.administrator!('POST', `${A2}/sso/rules`, { claim: 'groups', value: 'leads', accountRole: 'projectManager' });
  assert.equal(first.status, 201);
  assert.equal(second.status, 201);
  const put = await w.as.administrator!('PUT', `${A2}/sso/rules/${first.body.id}`, { claim: 'roles', value: 'drafting', group: urn('group', GROUP_ID), accountRole: null });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.deepEqual(
    { id: put.body.id, claim: put.body.claim, value: put.body.value, group: put.body.group, accountRole: put.body.accountRole, createdAt: put.body.createdAt },
    { id: first.body.id, claim: 'roles', value: 'drafting', group: urn('group', GROUP_ID), accountRole: null, createdAt: first.body.createdAt },
  );
  const listed = (await w.as.owner!('GET', `${A2}/sso`)).body.rules as { id: string; claim: string }[];
  const ours = listed.filter((r) => r.id === first.body.id || r.id === second.body.id);
  assert.deepEqual(ours.map((r) => [r.id, r.claim]), [[first.body.id, 'roles'], [second.body.id, 'groups']], 'the edited rule keeps its place');
  // Checked as a new rule is; a refused change leaves the rule as it was.
  const bad = assertProblem(await w.as.administrator!('PUT', `${A2}/sso/rules/${first.body.id}`, { claim: 'nonce', value: 'x', accountRole: 'administrator' }), 400, 'invalid-input');
  assert.equal(bad.errorValues.field, 'claim');
  assertProblem(await w.as.administrator!('PUT', `${A2}/sso/rules/${first.body.id}`, { claim: 'groups', value: 'x' }), 400, 'invalid-input');
  assertProblem(await w.as.administrator!('PUT', `${A2}/sso/rules/${first.body.id}`, { claim: 'groups', value: 'x', group: 'c9999999-9999-4999-8999-999999999999' }), 404, 'group-not-found');
  const kept = ((await w.as.owner!('GET', `${A2}/sso`)).body.rules as { id: string; value: string }[]).find((r) => r.id === first.body.id);
  assert.equal(kept?.value, 'drafting');
  assertProblem(await w.as.projectManager!('PUT', `${A2}/sso/rules/${first.body.id}`, { claim: 'groups', value: 'x', accountRole: 'administrator' }), 403, 'manage-sso-forbidden');
  assertProblem(await w.as.administrator!('PUT', `${A2}/sso/rules/c9999999-9999-4999-8999-999999999999`, { claim: 'groups', value: 'x', accountRole: 'administrator' }), 404, 'sso-rule-not-found');
  assertProblem(await w.as.administrator!('PUT', `${A2}/sso/rules/not-a-rule`, { claim: 'groups', value: 'x', accountRole: 'administrator' }), 404, 'sso-rule-not-found');
  // Another account's rule is not found from this one.
  assertProblem(await w.as.administrator!('PUT', `${O2}/sso/rules/${first.body.id}`, { claim: 'groups', value: 'x', accountRole: 'administrator' }), 404, 'account-not-found');
  for (const r of [first, second]) assert.equal((await w.as.administrator!('DELETE', `${A2}/sso/rules/${r.body.id}`)).status, 204);
});
