// The console's single sign-on forms (console/src/sso-forms.ts): pure rules, checked without a
// browser (test/e2e/console-sso.test.ts checks the screen against a started service).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_SCOPES, EMPTY_RULE, domainState, fieldOf, operatorCommand, parseScopes, providerBody, providerFormOf, ruleBody, ruleFormOf,
} from '../../console/src/sso-forms.ts';

/** The OpenID Connect body a form gives (fails the test on a refusal or a SAML body). */
function oidcBody(checked: ReturnType<typeof providerBody>) {
  assert.ok('body' in checked, JSON.stringify(checked));
  assert.ok(!('protocol' in checked.body), 'an OpenID Connect body');
  return checked.body as Exclude<typeof checked.body, { protocol: 'saml' }>;
}

const STORED = {
  protocol: 'oidc' as const, saml: null, displayName: 'Acme Login', issuer: 'https://login.acme.test', clientId: 'scanbase', hasClientSecret: true, scopes: ['openid', 'email', 'groups'],
  enabled: true, redirectUri: 'https://scan.acme.test/sso/callback', createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z',
};

test('provider form: the stored client secret is kept unless a new one is typed (the body leaves it out), and never filled from the service', () => {
  const form = providerFormOf(STORED);
  assert.equal(form.clientSecret, '');
  assert.equal(form.secretChoice, 'keep');
  assert.equal(form.scopes, 'openid email groups');
  const kept = oidcBody(providerBody({ ...form, displayName: '  Acme SSO ' }));
  assert.deepEqual(kept, { displayName: 'Acme SSO', issuer: 'https://login.acme.test', clientId: 'scanbase', scopes: ['openid', 'email', 'groups'], enabled: true });
  assert.ok(!('clientSecret' in kept), 'omitted: the stored one stays');
  assert.equal(oidcBody(providerBody({ ...form, secretChoice: 'replace', clientSecret: 's3cret value' })).clientSecret, 's3cret value', 'sent as typed, not trimmed');
  assert.equal(oidcBody(providerBody({ ...form, secretChoice: 'none' })).clientSecret, null, 'null: a public client');
});

test('provider form: a new provider asks for a secret, and "replace" without one is refused on the secret input before anything is sent', () => {
  const form = providerFormOf(null);
  assert.equal(form.secretChoice, 'replace');
  assert.equal(form.scopes, DEFAULT_SCOPES);
  assert.deepEqual(providerBody({ ...form, displayName: 'X', issuer: 'https://x.test', clientId: 'c' }), {
    problem: { field: 'clientSecret', message: 'Type the client secret, or choose to keep the stored one or to have none.' },
  });
  assert.equal(providerFormOf({ ...STORED, hasClientSecret: false }).secretChoice, 'none', 'a public client stays one');
});

test('provider form: a SAML provider is sent as protocol and saml, each missing value refused naming its input, and a stored one fills the form back', () => {
  const form = { ...providerFormOf(null), protocol: 'saml' as const, displayName: 'Acme Entra', samlEntityId: ' https://idp.test ', samlSsoUrl: 'https://idp.test/sso', samlCertificate: 'MIIC…' };
  assert.deepEqual(providerBody(form), {
    body: { protocol: 'saml', displayName: 'Acme Entra', enabled: true, saml: { entityId: 'https://idp.test', ssoUrl: 'https://idp.test/sso', certificates: ['MIIC…'] } },
  });
  for (const field of ['samlEntityId', 'samlSsoUrl', 'samlCertificate'] as const) {
    const refused = providerBody({ ...form, [field]: ' ' });
    assert.ok('problem' in refused && refused.problem.field === field, field);
  }
  const stored = {
    ...STORED, protocol: 'saml' as const, issuer: 'https://idp.test', clientId: 'https://scan.test/sso/saml/a1',
    saml: {
      ssoUrl: 'https://idp.test/sso', certificates: [{ pem: 'PEM-1', subject: 'CN=idp', notAfter: '2030-01-01T00:00:00Z', sha256Fingerprint: 'ab' }],
      attributes: { email: 'e', firstName: 'f', lastName: 'l', groups: 'g' },
      spEntityId: 'https://scan.test/sso/saml/a1', acsUrl: 'https://scan.test/sso/saml/a1/acs', metadataUrl: 'https://scan.test/sso/saml/a1/metadata',
    },
  };
  const back = providerFormOf(stored);
  assert.deepEqual([back.protocol, back.samlEntityId, back.samlSsoUrl, back.samlCertificate, back.issuer, back.clientId], ['saml', 'https://idp.test', 'https://idp.test/sso', 'PEM-1', '', '']);
  assert.equal(fieldOf({ values: { field: 'body.saml.certificates[0]' } }, ['samlCertificate']), 'samlCertificate', 'the service\'s name for a certificate → its input');
});

test('scopes as typed: spaces or commas, each once, in order; none typed leaves the service\'s default', () => {
  assert.deepEqual(parseScopes(' openid,email  groups,,openid '), ['openid', 'email', 'groups']);
  assert.deepEqual(parseScopes('   '), []);
  assert.ok(!('scopes' in oidcBody(providerBody({ ...providerFormOf(STORED), scopes: '' }))));
});

test('rule form: a claim, a value and a group or a role are needed, each refusal naming its input; an edited rule fills the form back', () => {
  assert.equal((ruleBody({ ...EMPTY_RULE, claim: ' ' }) as { problem: { field: string } }).problem.field, 'claim');
  assert.equal((ruleBody({ ...EMPTY_RULE, value: '' }) as { problem: { field: string } }).problem.field, 'value');
  assert.equal((ruleBody({ ...EMPTY_RULE, value: 'surveyors' }) as { problem: { field: string } }).problem.field, 'group');
  assert.deepEqual(ruleBody({ claim: ' groups ', value: ' surveyors', group: 'urn:x:group:g1', accountRole: '' }), {
    body: { claim: 'groups', value: ' surveyors', group: 'urn:x:group:g1', accountRole: null },
  });
  const rule = { id: 'r1', claim: 'roles', value: 'admin', group: null, accountRole: 'administrator' as const, createdAt: '2026-11-01T00:00:00.000Z' };
  assert.deepEqual(ruleFormOf(rule), { claim: 'roles', value: 'admin', group: '', accountRole: 'administrator' });
  assert.deepEqual(ruleBody(ruleFormOf(rule)), { body: { claim: 'roles', value: 'admin', group: null, accountRole: 'administrator' } });
});

test('a refusal of the service is shown at the input its errorValues.field names (a schema path too), else for the whole form', () => {
  const refusal = (values: Record<string, unknown>) => Object.assign(new Error('Invalid'), { status: 400, values });
  const fields = ['displayName', 'issuer', 'scopes'];
  assert.equal(fieldOf(refusal({ field: 'issuer' }), fields), 'issuer');
  assert.equal(fieldOf(refusal({ field: 'body.displayName' }), fields), 'displayName');
  assert.equal(fieldOf(refusal({ field: 'body.scopes.0' }), fields), 'scopes');
  assert.equal(fieldOf(refusal({ field: 'body.extra' }), fields), null, 'not an input of the form');
  assert.equal(fieldOf(refusal({}), fields), null);
  assert.equal(fieldOf(new Error('network'), fields), null);
  assert.equal(fieldOf(null, fields), null);
});

test('domains: the operator\'s command carries the domain and its token; the state sentence follows verification and the switch', () => {
  assert.equal(operatorCommand('acme.test', 'scanbase-domain-abc'), 'npm run admin -- confirm-sso-domain --domain acme.test --token scanbase-domain-abc');
  assert.match(domainState({ verified: false, requireSso: false }), /Waiting for the operator/);
  assert.match(domainState({ verified: true, requireSso: true }), /must sign in with single sign-on/);
  assert.match(domainState({ verified: true, requireSso: false }), /or a password/);
});
