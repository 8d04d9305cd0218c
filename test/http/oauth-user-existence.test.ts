// An access token of a user who no longer exists answers 401 (after POST /_operator/reset,
// or when the user is deleted), while the bearer hot path stays cheap: whether a user
// exists is looked up once per user per cache lifetime (60 s) on each node, never per
// request, and the cache is dropped by domain events (service.reset; an event about the user).
import { eventOf } from '../../src/core/events/domain-events.ts';
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.ts';
import { compose, type Core } from '../../src/compose.ts';
import { buildApp, type App } from '../../src/http/app.ts';
import { eventually, twoNodes } from '../support/two-nodes.ts';
import { OPERATOR_TOKEN, PUBLIC_URL } from '../support/app.ts';
import { TEST_DATABASE_URL, testDatabase, type TestDatabase } from '../support/database.ts';

const USERS = [
  { email: 'ada@exist.test', password: 'ada-password-1', firstName: 'Ada', lastName: 'Exists' },
  { email: 'bea@exist.test', password: 'bea-password-1', firstName: 'Bea', lastName: 'Exists' },
  { email: 'cy@exist.test', password: 'cy-password-1', firstName: 'Cy', lastName: 'Exists' },
  { email: 'dee@exist.test', password: 'dee-password-1', firstName: 'Dee', lastName: 'Exists' },
];
const op = { authorization: `Bearer ${OPERATOR_TOKEN}` };

const status = async (app: App, url: string, token: string) =>
  (await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })).statusCode;

/** The token's answers on both APIs. */
const answers = async (app: App, token: string) => [
  await status(app, '/api/isLogged', token),
  await status(app, '/api/2/values/permissions', token),
];

describe('tokens of users who no longer exist', () => {
  let db: TestDatabase;
  let core: Core;
  let app: App;
  let ids: Record<string, string>;
  /** users.tokenState lookups (the existence and revocation check) per user id. */
  const lookups = new Map<string, number>();

  const seed = async () => {
    const res = await app.inject({ method: 'POST', url: '/_operator/seed', headers: op, payload: { users: USERS } });
    assert.equal(res.statusCode, 200, res.body);
    ids = Object.fromEntries((res.json().users as { email: string; id: string }[]).map((u) => [u.email, u.id]));
  };
  const tokensFor = async (email: string) => {
    const res = await app.inject({ method: 'POST', url: '/_operator/tokens', headers: op, payload: { email } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { access_token: string };
  };
  /** No use case deletes a user yet: the row goes the way a deletion would take it (dependent rows cascade). */
  const removeUserRow = (id: string) => db.sql.query('DELETE FROM users WHERE id = $1', [id]);

  before(async () => {
    db = await testDatabase();
    core = await compose(loadConfig({ DATABASE_URL: 'memory:', OPERATOR_TOKEN, SANDBOX: '1', PUBLIC_URL }), { sql: db.sql });
    app = await buildApp(core);
    await seed();
    const users = core.store.repos.users;
    const tokenState = users.tokenState.bind(users);
    users.tokenState = async (id: string) => {
      lookups.set(id, (lookups.get(id) ?? 0) + 1);
      return tokenState(id);
    };
  });
  after(async () => {
    await app?.close();
    await core?.close();
    await db?.drop();
  });

  test('an access token of a user removed by POST /_operator/reset answers 401 on both APIs', async () => {
    const { access_token } = await tokensFor(USERS[0]!.email);
    assert.deepEqual(await answers(app, access_token), [200, 200]);
    const res = await app.inject({ method: 'POST', url: '/_operator/reset', headers: op });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await answers(app, access_token), [401, 401]);
    // The same e-mail seeded again is a new user (a new id): the old token stays refused.
    await seed();
    assert.deepEqual(await answers(app, access_token), [401, 401]);
    const fresh = await tokensFor(USERS[0]!.email);
    assert.deepEqual(await answers(app, fresh.access_token), [200, 200]);
  });

  test('an access token of a deleted user answers 401 as soon as an event about the user (user.removed) is published', async () => {
    const { access_token } = await tokensFor(USERS[1]!.email);
    assert.deepEqual(await answers(app, access_token), [200, 200]);
    const id = ids[USERS[1]!.email]!;
    await removeUserRow(id);
    await core.store.transaction((repos) => repos.events.publish(eventOf('user.removed', null, `user:${id}`, { userId: id }), new Date()));
    assert.deepEqual(await answers(app, access_token), [401, 401]);
  });

  test("without a published change, a deleted user's token stops working when the cache lifetime (60 s) ends", async () => {
    const { access_token } = await tokensFor(USERS[2]!.email);
    assert.deepEqual(await answers(app, access_token), [200, 200]);
    await removeUserRow(ids[USERS[2]!.email]!);
    assert.deepEqual(await answers(app, access_token), [200, 200], 'still cached on this node');
    const res = await app.inject({ method: 'POST', url: '/_operator/clock', headers: op, payload: { advanceSeconds: 61 } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await answers(app, access_token), [401, 401]);
  });

  test('a user re-created with the same fixed id after a reset gets working tokens at once (no wait for the cache lifetime)', async () => {
    const fixed = { ...USERS[0]!, email: 'fixed@exist.test', id: 'a0a0a0a0-0000-4000-8000-00000000000f' };
    const seedFixed = async () =>
      assert.equal((await app.inject({ method: 'POST', url: '/_operator/seed', headers: op, payload: { users: [fixed] } })).statusCode, 200);
    await seedFixed();
    const before = await tokensFor(fixed.email);
    assert.equal((await app.inject({ method: 'POST', url: '/_operator/reset', headers: op })).statusCode, 200);
    assert.deepEqual(await answers(app, before.access_token), [401, 401], 'gone: refused, and remembered as absent');
    await seedFixed(); // seeding publishes no change for the user
    const after = await tokensFor(fixed.email);
    assert.deepEqual(await answers(app, after.access_token), [200, 200]);
    await seed();
  });

  test('the existence check is one lookup per user per cache lifetime, never one per request', async () => {
    const { access_token } = await tokensFor(USERS[3]!.email);
    const id = ids[USERS[3]!.email]!;
    core.tokens.knownUsers.clear();
    lookups.delete(id);
    const first = await Promise.all(Array.from({ length: 50 }, () => status(app, '/api/isLogged', access_token)));
    assert.deepEqual(first, Array(50).fill(200));
    for (let i = 0; i < 50; i++) assert.equal(await status(app, '/api/2/values/permissions', access_token), 200);
    assert.equal(lookups.get(id), 1, 'one lookup for 100 requests');
    // Another token of the same user costs a signature check, not another lookup.
    const other = await tokensFor(USERS[3]!.email);
    assert.equal(await status(app, '/api/isLogged', other.access_token), 200);
    assert.equal(lookups.get(id), 1);
  });
});

describe('across nodes (PostgreSQL, domain events)', { skip: TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)' }, () => {
  test('a reset on one node (service.reset) makes the other node refuse the token at once (no waiting for the cache lifetime)', async () => {
    const { a, b, close } = await twoNodes();
    try {
      await a.seed({ users: [USERS[0]] });
      const { access_token } = await a.tokens(USERS[0]!.email);
      assert.deepEqual(await answers(b.app, access_token), [200, 200], 'node B verifies and caches');
      assert.equal((await a.app.inject({ method: 'POST', url: '/_operator/reset', headers: op })).statusCode, 200);
      // The event reaches node B through LISTEN/NOTIFY, asynchronously: allow it a moment.
      assert.deepEqual(await eventually(() => answers(b.app, access_token), (seen) => seen[0] === 401), [401, 401]);
    } finally {
      await close();
    }
  });
});
