// The integrations module's pure rules and settings (docs/integrations.md): a project's Konekt
// strategy when it names none, the Autodesk sign-in's redirectUri, the Autodesk settings given
// all three or none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.ts';
import { checkRedirectUri, projectSyncStrategy } from '../../src/modules/integrations/core/rules.ts';

test('a project without a strategy takes its hub\'s, and BOTH_WAY when the hub leaves it to the project or is unknown', () => {
  assert.equal(projectSyncStrategy('UPDATES_ONLY_FROM_KONEKT'), 'UPDATES_ONLY_FROM_KONEKT');
  assert.equal(projectSyncStrategy('BOTH_WAY'), 'BOTH_WAY');
  assert.equal(projectSyncStrategy('CONFIG_ON_PROJECT'), 'BOTH_WAY');
  assert.equal(projectSyncStrategy(null), 'BOTH_WAY');
});

test('the sign-in\'s redirectUri is an absolute http(s) address of at most 2000 characters', () => {
  for (const ok of ['http://localhost:5173/x?y=1', 'https://app.example/done']) assert.doesNotThrow(() => checkRedirectUri(ok));
  for (const bad of ['javascript:alert(1)', '/relative', 'ftp://host/x', 'not a url', `https://app.example/${'a'.repeat(2000)}`]) {
    assert.throws(() => checkRedirectUri(bad), (e: any) => e.code === 'invalid-input', bad);
  }
});

test('the Autodesk settings are all three or none; KONEKT_API_URL must be an http(s) URL', () => {
  assert.equal(loadConfig({}).integrations.autodesk, undefined);
  assert.equal(loadConfig({}).integrations.konektApiUrl, undefined);
  const on = loadConfig({ AUTODESK_API_URL: 'https://developer.api.autodesk.com/', AUTODESK_CLIENT_ID: 'id', AUTODESK_CLIENT_SECRET: 's' }).integrations;
  assert.deepEqual(on.autodesk, { apiUrl: 'https://developer.api.autodesk.com', clientId: 'id', clientSecret: 's' });
  assert.throws(() => loadConfig({ AUTODESK_API_URL: 'https://developer.api.autodesk.com', AUTODESK_CLIENT_ID: 'id' }), /AUTODESK_CLIENT_SECRET/);
  assert.throws(() => loadConfig({ KONEKT_API_URL: 'konekt.example' }), /KONEKT_API_URL/);
  assert.equal(loadConfig({ KONEKT_API_URL: 'https://konekt.example/api/' }).integrations.konektApiUrl, 'https://konekt.example/api');
});
