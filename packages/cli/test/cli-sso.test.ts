// @engine-independent: the settings' SQL is the service's, covered on both engines by test/http/sso-settings.test.ts.
// `scanbase sso …` against a started service (docs/identity.md "From the command line"): the
// provider set with its client secret read from standard input and never printed back, a
// domain claimed with its verification token, a mapping rule, show, removal; a project manager
// is refused (exit code of a 403).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { emailOf, GROUP_ID } from '../../../test/support/projects.ts';
import { startSdkWorld, type SdkWorld } from '../../sdk/test/support/server.ts';
import { scanbase, type Run } from './support/run.ts';

let world: SdkWorld;
let configDir: string;
const SECRET = 'cli-idp-client-secret-83be21';

before(async () => {
  world = await startSdkWorld();
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-sso-'));
  for (const [profile, who] of [['admin', 'administrator'], ['pm', 'projectManager']] as const) {
    const pair = await world.operator('POST', '/tokens', { email: emailOf(who) });
    const r = await scanbase(['--profile', profile, 'login', '--with-token', '--base-url', world.url], { configDir, stdin: JSON.stringify(pair) });
    assert.equal(r.code, 0, r.stderr);
  }
});
after(async () => {
  await world?.stop();
  if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
});

const cli = (profile: string, args: string[], stdin?: string) => scanbase(['--profile', profile, ...args], { configDir, stdin });
const ok = (r: Run) => {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return r;
};

test('cli: sso provider set reads the secret from standard input and never prints it; domains, rules and show', async () => {
  const set = ok(await cli('admin', ['sso', 'provider', 'set', '--display-name', 'Acme Okta', '--issuer', 'https://acme.okta.test', '--client-id', 'scanbase', '--client-secret-stdin', '--json'], `${SECRET}\n`));
  assert.equal(JSON.parse(set.stdout).hasClientSecret, true);
  const added = ok(await cli('admin', ['sso', 'domains', 'add', 'acme.test']));
  assert.match(added.stdout, /verificationToken\s+scanbase-domain-/);
  assert.match(added.stdout, /confirm-sso-domain --domain acme\.test --token scanbase-domain-/);
  const rule = JSON.parse(ok(await cli('admin', ['sso', 'rules', 'add', '--claim', 'groups', '--value', 'field', '--group', GROUP_ID, '--role', 'projectLister', '--json'])).stdout);
  assert.equal(rule.accountRole, 'projectLister');
  const changed = JSON.parse(ok(await cli('admin', ['sso', 'rules', 'set', rule.id, '--claim', 'groups', '--value', 'crew', '--role', 'projectManager', '--json'])).stdout);
  assert.deepEqual([changed.id, changed.value, changed.group, changed.accountRole], [rule.id, 'crew', null, 'projectManager'], 'changed in place');
  assert.notEqual((await cli('admin', ['sso', 'rules', 'set', rule.id, '--claim', 'groups', '--value', 'crew'])).code, 0, '--group or --role is required');
  const shown = ok(await cli('admin', ['sso', 'show']));
  assert.match(shown.stdout, /Acme Okta/);
  assert.match(shown.stdout, /acme\.test/);
  const json = JSON.parse(ok(await cli('admin', ['sso', 'show', '--json'])).stdout);
  assert.equal(json.rules[0].id, rule.id);
  for (const r of [set, added, shown]) assert.ok(!`${r.stdout}${r.stderr}`.includes(SECRET), 'the secret is never printed');
  // Only a verified domain may require SSO: a 409 is a refusal.
  const refused = await cli('admin', ['sso', 'domains', 'require', 'acme.test']);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /not verified/);
  ok(await cli('admin', ['sso', 'rules', 'remove', rule.id]));
  ok(await cli('admin', ['sso', 'domains', 'remove', 'acme.test']));
  ok(await cli('admin', ['sso', 'provider', 'remove']));
  assert.equal(JSON.parse(ok(await cli('admin', ['sso', 'show', '--json'])).stdout).provider, null);
});

test('cli: a project manager may not read the SSO settings (403, the exit code of a refusal)', async () => {
  const r = await cli('pm', ['sso', 'show']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /read-sso-forbidden|account:administrators:read/);
});

test('cli: sso provider set-saml reads the IdP metadata file, and a malformed certificate file is refused naming the field', async () => {
  const metadata = path.join(configDir, 'idp-metadata.xml');
  const cert = fs.readFileSync(new URL('../../../test/fixtures/saml/idp-cert.pem', import.meta.url), 'utf8');
  fs.writeFileSync(metadata,
    '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://sts.acme.test/idp">' +
    '<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>' +
    `${cert.replace(/-----[A-Z ]+-----|\s/g, '')}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://sts.acme.test/saml2"/></md:IDPSSODescriptor></md:EntityDescriptor>');
  const set = JSON.parse(ok(await cli('admin', ['sso', 'provider', 'set-saml', '--display-name', 'Acme Entra', '--metadata', metadata, '--groups-attribute', 'groups', '--json'])).stdout);
  assert.equal(set.protocol, 'saml');
  assert.equal(set.issuer, 'https://sts.acme.test/idp');
  assert.equal(set.saml.ssoUrl, 'https://sts.acme.test/saml2');
  assert.equal(set.saml.attributes.groups, 'groups');
  assert.match(set.saml.acsUrl, /\/sso\/saml\/[0-9a-f-]{36}\/acs$/);
  const bad = path.join(configDir, 'bad-cert.pem');
  fs.writeFileSync(bad, '-----BEGIN CERTIFICATE-----\nnot a certificate\n-----END CERTIFICATE-----\n');
  const refused = await cli('admin', ['sso', 'provider', 'set-saml', '--display-name', 'x', '--entity-id', 'urn:x', '--sso-url', 'https://sts.acme.test/saml2', '--certificate', bad]);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /saml\.certificates\[0\]/);
  ok(await cli('admin', ['sso', 'provider', 'remove']));
});
