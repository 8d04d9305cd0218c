// The authorize pages' sessions: an unauthenticated client cannot grow web_sessions (a
// browser gets a cookie value at once, a row only at a successful sign-in), and the
// sign-in form stays CSRF-protected by a stateless token bound to the cookie value,
// dated (12 hours), and signed with a key every node shares.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.ts';
import { compose, type Core } from '../../src/compose.ts';
import { buildApp, type App } from '../../src/http/app.ts';
import { testDatabase, type TestDatabase } from '../support/database.ts';
import { OPERATOR_TOKEN, PUBLIC_URL } from '../support/app.ts';
import {
  UserAgent,
  authorize,
  authorizePath,
  header,
  hiddenFieldsOf,
  injectTransport,
  type HttpResponse,
  type Transport,
} from '../support/oauth-client.ts';

const REDIRECT = 'http://127.0.0.1:9/callback';
const USER = { email: 'sol@session.test', password: 'sol-password-1' };
const PATH = authorizePath({ redirectUri: REDIRECT, state: 'sess' });

let db: TestDatabase;
let core: Core;
let app: App;
let http: Transport;

before(async () => {
  db = await testDatabase();
  core = await compose(loadConfig({ DATABASE_URL: 'memory:', OPERATOR_TOKEN, SANDBOX: '1', PUBLIC_URL }), { sql: db.sql });
  app = await buildApp(core);
  http = injectTransport(app);
  const res = await app.inject({
    method: 'POST',
    url: '/_operator/seed',
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    payload: { users: [{ ...USER, firstName: 'Sol', lastName: 'Session' }] },
  });
  assert.equal(res.statusCode, 200, res.body);
});
after(async () => {
  await app?.close();
  await core?.close();
  await db?.drop();
});

const sessions = async () => (await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM web_sessions'))[0]!.n;

/** 403 with the page that says why: "Expired form" only for a form of this browser that is too old. */
function assertRefusedForm(res: HttpResponse, why: 'expired' | 'mismatch' | 'missing') {
  assert.equal(res.status, 403, res.body);
  assert.equal(header(res, 'location'), undefined);
  if (why === 'expired') return assert.match(res.body, /Expired form/);
  assert.doesNotMatch(res.body, /Expired|expired/, 'a token that is not this session\'s is not called expired');
  assert.match(res.body, /Form not accepted/);
  assert.match(res.body, why === 'missing' ? /carried no security token/ : /does not belong to this browser&#39;s session/);
}

/** A browser showing the sign-in form: its cookie and the form's fields. */
async function signInForm(agent = new UserAgent(http)) {
  const page = await agent.get(PATH);
  assert.equal(page.status, 200);
  assert.match(page.body, /action="\/oauth\/login"/);
  return { agent, fields: hiddenFieldsOf(page.body) };
}

describe('no session row before sign-in', () => {
  test('an anonymous client cannot grow web_sessions: cookieless GETs, repeated GETs and failed sign-ins write no row', async () => {
    const before = await sessions();
    for (let i = 0; i < 50; i++) {
      const res = await http({ method: 'GET', path: PATH });
      assert.equal(res.status, 200);
      assert.ok(header(res, 'set-cookie'), 'each cookieless browser still gets a cookie value');
    }
    const { agent, fields } = await signInForm();
    for (let i = 0; i < 3; i++) {
      assert.equal((await agent.postForm('/oauth/login', { ...fields, email: USER.email, password: `wrong-${i}` })).status, 401);
      assert.equal((await agent.get(PATH)).status, 200);
    }
    assert.equal(await sessions(), before);
  });

  test('a successful sign-in writes that browser\'s first and only row', async () => {
    const before = await sessions();
    const r = await authorize(http, { ...USER, redirectUri: REDIRECT });
    assert.ok(r.code);
    assert.equal(await sessions(), before + 1);
    // Approving again in the signed-in browser adds nothing.
    assert.ok((await authorize(http, { ...USER, redirectUri: REDIRECT, agent: r.agent })).code);
    assert.equal(await sessions(), before + 1);
  });
});

describe('the sign-in form stays CSRF-protected', () => {
  test('the form token is bound to the browser\'s cookie: another browser\'s token, or no cookie, answers 403', async () => {
    const a = await signInForm();
    const b = await signInForm();
    assert.notEqual(a.agent.cookies.get('sb_session'), b.agent.cookies.get('sb_session'));
    assertRefusedForm(await a.agent.postForm('/oauth/login', { ...a.fields, csrf: b.fields.csrf, ...USER }), 'mismatch');
    const cookieless = new UserAgent(http);
    assertRefusedForm(await cookieless.postForm('/oauth/login', { ...a.fields, ...USER }), 'mismatch');
    // The right pair signs in.
    assert.equal((await a.agent.postForm('/oauth/login', { ...a.fields, ...USER })).status, 303);
  });

  test('a tampered token (another date, another signature, garbage) answers 403', async () => {
    const { agent, fields } = await signInForm();
    const [issued, mac] = fields.csrf!.split('.');
    const later = (parseInt(issued!, 36) + 1).toString(36);
    const flipped = `${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`;
    for (const csrf of [`${later}.${mac}`, `${issued}.${flipped}`, `${issued}.`, `.${mac}`, mac!, 'x'.repeat(300), `${fields.csrf}\n${fields.csrf}`]) {
      assertRefusedForm(await agent.postForm('/oauth/login', { ...fields, csrf, ...USER }), 'mismatch');
    }
    assertRefusedForm(await agent.postForm('/oauth/login', { ...fields, csrf: '', ...USER }), 'missing');
    const { csrf: _none, ...withoutToken } = fields;
    assertRefusedForm(await agent.postForm('/oauth/login', { ...withoutToken, ...USER }), 'missing');
  });

  test('a sign-in form older than 12 hours answers 403; the same browser gets a fresh form that works', async () => {
    const { agent, fields } = await signInForm();
    const res = await app.inject({
      method: 'POST',
      url: '/_operator/clock',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      payload: { advanceSeconds: 12 * 3600 + 60 },
    });
    assert.equal(res.statusCode, 200, res.body);
    assertRefusedForm(await agent.postForm('/oauth/login', { ...fields, ...USER }), 'expired');
    const fresh = hiddenFieldsOf((await agent.get(PATH)).body);
    assert.equal((await agent.postForm('/oauth/login', { ...fresh, ...USER })).status, 303);
  });

  test('an approval whose token is not the signed-in session\'s (two pasted together, another page\'s) is "Form not accepted", never "Expired form"; signed out, it says so', async () => {
    const r = await authorize(http, { ...USER, redirectUri: REDIRECT });
    const approve = await r.agent.get(PATH);
    const fields = hiddenFieldsOf(approve.body);
    assert.match(approve.body, /action="\/oauth\/authorize"/);
    // The approval page has two forms (Allow/Deny, Sign out) carrying the same token: a
    // script that reads both gets two lines, the README's old curl recipe's mistake.
    assertRefusedForm(await r.agent.postForm('/oauth/authorize', { ...fields, csrf: `${fields.csrf}\n${fields.csrf}`, decision: 'allow' }), 'mismatch');
    assertRefusedForm(await r.agent.postForm('/oauth/authorize', { ...fields, csrf: 'not-the-token', decision: 'allow' }), 'mismatch');
    const signedOut = await r.agent.postForm('/oauth/logout', { csrf: fields.csrf! });
    assert.equal(signedOut.status, 200);
    const after = await r.agent.postForm('/oauth/authorize', { ...fields, decision: 'allow' });
    assert.equal(after.status, 403);
    assert.match(after.body, /Signed out/);
    assert.doesNotMatch(after.body, /Expired form/);
  });

  test('every node accepts a form another node served (the key is in the database)', async () => {
    const other = await compose(loadConfig({ DATABASE_URL: 'memory:', OPERATOR_TOKEN, SANDBOX: '1', PUBLIC_URL }), { sql: db.sql });
    const otherApp = await buildApp(other);
    try {
      const { agent, fields } = await signInForm();
      const onOther = new UserAgent(injectTransport(otherApp));
      for (const [k, v] of agent.cookies) onOther.cookies.set(k, v);
      const login = await onOther.postForm('/oauth/login', { ...fields, ...USER });
      assert.equal(login.status, 303, login.body);
      // ...and the approval page and form work on the first node with the new session.
      for (const [k, v] of onOther.cookies) agent.cookies.set(k, v);
      const approve = await agent.get(header(login, 'location')!);
      assert.match(approve.body, /action="\/oauth\/authorize"/);
      const allowed = await agent.postForm('/oauth/authorize', { ...hiddenFieldsOf(approve.body), decision: 'allow' });
      assert.equal(allowed.status, 303);
      assert.ok(new URL(header(allowed, 'location')!).searchParams.get('code'));
    } finally {
      await otherApp.close();
      await other.close();
    }
  });
});
