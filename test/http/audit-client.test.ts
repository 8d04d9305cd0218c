// Who called, in the audit log (docs/audit.md, docs/tokens.md "Client ids"): an access token
// carries the OAuth client id its authorization request named (its client_id claim, the
// request's principal), a refresh keeps it, and every record of a request made with it names
// `oauth:<client_id>`; the token endpoint's records name the client it issued to; a code is
// exchanged only by its client; tokens and refresh tokens issued before client ids were kept
// stay valid (as the one client they all named, "scanbase"); the operator's and the admin
// command's records name their credential. Runs on the suite's engine (PGlite; PostgreSQL
// with TEST_DATABASE_URL).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';
import { A2, createProject, emailOf, projectWorld, type World } from '../support/projects.ts';
import { authorize, authorizePath, exchangeCode, injectTransport, pkcePair, randomState, refresh, tokenRequest, UserAgent } from '../support/oauth-client.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { sha256Hex } from '../../src/core/crypto/digest.ts';
import { executeAdmin } from '../../src/admin-commands.ts';

let t: TestApp;
let w: World;
let sql: Sql;

before(async () => {
  t = await testApp({}, { wrapSql: (s) => (sql = s) });
  w = await projectWorld(t);
});
after(() => t.close());

const REDIRECT = 'http://127.0.0.1:9/callback';
const newest = async () => (await t.core.store.repos.audit.page({}, null, 1))[0]!;
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

/** A code for the project manager from an authorization request naming `clientId` (none: no client_id). */
async function codeFor(clientId: string | undefined) {
  const transport = injectTransport(t.app);
  const { verifier, challenge } = pkcePair();
  const path = `${authorizePath({ redirectUri: REDIRECT, state: randomState(), codeChallenge: challenge })}${clientId ? `&client_id=${encodeURIComponent(clientId)}` : ''}`;
  const r = await authorize(transport, { authorize: path, email: emailOf('projectManager'), password: 'projectManager-password-1', redirectUri: REDIRECT });
  assert.ok(r.code, r.location);
  return { transport, code: r.code, verifier };
}

async function renameWith(token: string) {
  const p = await createProject(w.as.projectManager!);
  const res = await t.app.inject({
    method: 'PATCH', url: `${A2}/projects/${p.id.split(':').at(-1)}`, headers: { authorization: `Bearer ${token}` }, payload: { name: `Renamed ${randomState()}` },
  });
  assert.ok(res.statusCode < 300, res.body);
  return newest();
}

test('a token issued to a client names it (claim, principal) and every record of its changes says oauth:<client_id>; the token endpoint\'s record too; a refresh keeps it', async () => {
  const { transport, code, verifier } = await codeFor('survey-integration');
  const exchanged = await exchangeCode(transport, code, REDIRECT, verifier);
  assert.equal(exchanged.status, 200, exchanged.body);
  assert.equal((await newest()).client, 'oauth:survey-integration', 'the token endpoint\'s record names the client it issued to');
  const pair = JSON.parse(exchanged.body);
  assert.equal(claimsOf(pair.access_token).client_id, 'survey-integration');
  assert.equal((await t.core.tokens.authenticate(pair.access_token))?.clientId, 'survey-integration');
  const changed = await renameWith(pair.access_token);
  assert.equal(changed.operation, 'patchProject PATCH /api/2/accounts/:accountRef/projects/:projectRef');
  assert.equal(changed.client, 'oauth:survey-integration');
  const refreshed = await refresh(transport, pair.refresh_token);
  assert.equal(refreshed.status, 200, refreshed.body);
  assert.equal((await newest()).client, 'oauth:survey-integration');
  assert.equal(claimsOf(JSON.parse(refreshed.body).access_token).client_id, 'survey-integration', 'the family keeps its client');
});

test('a code is exchanged only by the client it was issued to; a malformed client_id is refused on the authorize page and at the token endpoint', async () => {
  const { transport, code, verifier } = await codeFor('survey-integration');
  const other = await tokenRequest(transport, { grant_type: 'authorization_code', code, authorization_code: REDIRECT, code_verifier: verifier, client_id: 'another-client' });
  assert.equal(other.status, 400, other.body);
  assert.equal(JSON.parse(other.body).error, 'invalid_grant');
  const page = await new UserAgent(transport).get(`${authorizePath({ redirectUri: REDIRECT, state: randomState() })}&client_id=${encodeURIComponent('two words')}`);
  assert.equal(page.status, 400);
  assert.match(page.body, /client_id/);
  const fresh = await codeFor(undefined);
  const malformed = await tokenRequest(transport, { grant_type: 'authorization_code', code: fresh.code, authorization_code: REDIRECT, code_verifier: fresh.verifier, client_id: 'x'.repeat(257) });
  assert.equal(malformed.status, 400, malformed.body);
});

test('an authorization naming no client, and tokens and refresh tokens issued before client ids were kept, stay valid as the client "scanbase"', async () => {
  const { transport, code, verifier } = await codeFor(undefined);
  const pair = JSON.parse((await exchangeCode(transport, code, REDIRECT, verifier)).body);
  assert.equal(claimsOf(pair.access_token).client_id, 'scanbase', 'the claim every token had before');
  assert.equal((await renameWith(pair.access_token)).client, 'oauth:scanbase');
  // A refresh token from before the migration: no client kept with it.
  await sql.query('UPDATE refresh_tokens SET client_id = NULL WHERE token_hash = $1', [sha256Hex(pair.refresh_token)]);
  const refreshed = await refresh(transport, pair.refresh_token);
  assert.equal(refreshed.status, 200, refreshed.body);
  const next = JSON.parse(refreshed.body).access_token;
  assert.equal(claimsOf(next).client_id, 'scanbase');
  assert.equal((await t.core.tokens.authenticate(next))?.clientId, 'scanbase');
});

test('the operator\'s and the admin command\'s records name their credential; a request without one names none', async () => {
  const op = await t.app.inject({ method: 'POST', url: '/_operator/tokens', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, payload: { email: emailOf('member') } });
  assert.equal(op.statusCode, 200);
  assert.equal((await newest()).client, 'operator-token');
  const admin = await executeAdmin({ command: 'audit verify', values: {} }, { auditLog: t.core.auditLog } as never, async () => '');
  assert.equal(admin.code, 0, admin.stderr);
  assert.equal((await newest()).client, 'admin-command');
  const anonymous = await t.app.inject({ method: 'POST', url: `${A2}/projects`, payload: { name: 'no token' } });
  assert.equal(anonymous.statusCode, 401);
  const r = await newest();
  assert.equal(r.outcome, 'refused');
  assert.equal(r.client, null);
});
