// Housekeeping (src/modules/maintenance/core/janitor.ts) on every engine, driven by the sandbox
// clock: expired web sessions go; spent codes, refresh tokens and invitations stay a day
// for forensics, then go; stale sign-in throttle rows go; what still works stays. One
// node per cluster does a pass (advisory lock), and compose runs one at start.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { compose, type Core } from '../../src/compose.ts';
import { buildApp, type App } from '../../src/http/app.ts';
import type { JanitorResult } from '../../src/modules/maintenance/core/janitor.ts';
import { ENGINES, testDatabase, type TestDatabase } from '../support/database.ts';
import { OPERATOR_TOKEN, PUBLIC_URL } from '../support/app.ts';
import {
  UserAgent,
  authorizePath,
  hiddenFieldsOf,
  injectTransport,
  refresh,
  signIn,
  type Transport,
} from '../support/oauth-client.ts';

const HOUR = 3600;
const DAY = 24 * HOUR;
const REDIRECT = 'http://127.0.0.1:9/callback';
const USERS = [
  { email: 'jan@janitor.test', password: 'jan-password-1' },
  { email: 'ivy@janitor.test', password: 'ivy-password-1' },
  { email: 'bo@janitor.test', password: 'bo-password-1' },
];
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const engine of ENGINES) {
  describe(`housekeeping on ${engine}`, () => {
    let db: TestDatabase;
    let core: Core;
    let app: App;
    let http: Transport;
    const ids: Record<string, string> = {};

    const op = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    const advance = async (seconds: number) => {
      const res = await app.inject({ method: 'POST', url: '/_operator/clock', headers: op, payload: { advanceSeconds: seconds } });
      assert.equal(res.statusCode, 200, res.body);
    };
    const count = async (table: string, where = 'true', params: unknown[] = []) =>
      (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, params))[0]!.n;
    /** A completed pass (waits while another one holds the lock). */
    const pass = async (): Promise<JanitorResult & { ran: true }> => {
      for (let i = 0; i < 200; i++) {
        const r = await core.janitor.run();
        if (r.ran) return r;
        await sleep(25);
      }
      throw new Error('the maintenance lock was never free');
    };

    before(async () => {
      db = await testDatabase(engine);
      const config = loadConfig({ DATABASE_URL: 'memory:', OPERATOR_TOKEN, SANDBOX: '1', PUBLIC_URL });
      core = await compose(config, { sql: db.sql });
      app = await buildApp(core);
      http = injectTransport(app);
      const res = await app.inject({
        method: 'POST',
        url: '/_operator/seed',
        headers: op,
        payload: { users: USERS.map((u) => ({ ...u, firstName: 'Jan', lastName: 'Itor' })) },
      });
      assert.equal(res.statusCode, 200, res.body);
      for (const u of res.json().users as { email: string; id: string }[]) ids[u.email] = u.id;
    });
    after(async () => {
      await app?.close();
      await core?.close();
      await db?.drop();
    });

    test('a pass gives the planner the tables\' statistics on PGlite (no autovacuum there; PostgreSQL\'s does it)', { skip: engine !== 'pglite' && 'PostgreSQL analyses by itself' }, async () => {
      await db.sql.exec('CREATE TABLE janitor_stats_probe (n int)');
      await db.sql.query('INSERT INTO janitor_stats_probe SELECT g FROM generate_series(1, 5000) g');
      const tuples = async () => (await db.sql.query<{ t: number }>(`SELECT reltuples::float8 AS t FROM pg_class WHERE relname = 'janitor_stats_probe'`))[0]!.t;
      assert.equal(await tuples(), -1, 'never analysed: the planner does not know its size');
      await pass();
      assert.equal(await tuples(), 5000, 'the pass analysed it');
      await db.sql.exec('DROP TABLE janitor_stats_probe');
    });

    test('compose runs a pass at start (recorded as the last pass)', async () => {
      let last: unknown = null;
      for (let i = 0; i < 200 && last === null; i++) {
        last = await core.store.repos.settings.get('maintenance.lastPassAt');
        if (last === null) await sleep(25);
      }
      assert.equal(typeof last, 'string');
      assert.ok(Math.abs(Date.parse(last as string) - core.clock.nowMs()) < 60_000);
    });

    test('expired web sessions are deleted; live ones stay', async () => {
      const signedIn = async () => {
        const agent = new UserAgent(http);
        await signIn(agent, authorizePath({ redirectUri: REDIRECT, state: 'jan' }), USERS[0]!.email, USERS[0]!.password);
        return sha256(agent.cookies.get('sb_session')!);
      };
      const early = await signedIn();
      await pass();
      assert.equal(await count('web_sessions', 'id_hash = $1', [early]), 1, 'a live session stays');
      await advance(12 * HOUR - 60);
      const late = await signedIn();
      await advance(120);
      const r = await pass();
      assert.ok(r.deleted.webSessions >= 1);
      assert.equal(await count('web_sessions', 'id_hash = $1', [early]), 0, 'expired 60 s ago: deleted');
      assert.equal(await count('web_sessions', 'id_hash = $1', [late]), 1, 'still live: kept');
      assert.equal(await count('web_sessions', 'expires_at <= $1', [core.clock.now()]), 0);
    });

    test('authorization codes are kept a day past use or expiry, then deleted', async () => {
      const userId = ids[USERS[0]!.email]!;
      const used = await core.tokens.issueCode(userId, REDIRECT, null, null);
      await core.tokens.exchangeCode({ code: used, redirectUri: REDIRECT, codeVerifier: undefined });
      const unused = await core.tokens.issueCode(userId, REDIRECT, null, null); // expires in 5 minutes
      const byHash = (c: string) => count('authorization_codes', 'code_hash = $1', [sha256(c)]);
      await advance(DAY - 60);
      await pass();
      assert.equal(await byHash(used), 1, 'used, but within the forensic day: kept');
      assert.equal(await byHash(unused), 1, 'expired, but within the forensic day: kept');
      await advance(120);
      const r = await pass();
      assert.ok(r.deleted.authorizationCodes >= 1);
      assert.equal(await byHash(used), 0, 'used over a day ago: deleted');
      assert.equal(await byHash(unused), 1, 'expired less than a day ago: kept');
      const fresh = await core.tokens.issueCode(userId, REDIRECT, null, null);
      await advance(5 * 60);
      await pass();
      assert.equal(await byHash(unused), 0, 'expired over a day ago: deleted');
      assert.equal(await byHash(fresh), 1, 'expired just now: kept');
    });

    test('consumed, revoked and expired refresh tokens are kept a day, then deleted once their family has no valid token; valid ones stay', async () => {
      const userId = ids[USERS[1]!.email]!;
      const consumed = await core.tokens.issueForUser(userId);
      const rotated = await refresh(http, consumed.refresh_token);
      assert.equal(rotated.status, 200, rotated.body);
      const next = JSON.parse(rotated.body) as { refresh_token: string };
      const revoked = await core.tokens.issueForUser(userId);
      await core.tokens.revoke(revoked.refresh_token);
      const row = (t: string) => count('refresh_tokens', 'token_hash = $1', [sha256(t)]);

      await advance(DAY - 60);
      await pass();
      for (const t of [consumed.refresh_token, revoked.refresh_token, next.refresh_token]) assert.equal(await row(t), 1);

      await advance(120);
      const r = await pass();
      assert.ok(r.deleted.refreshTokens >= 1);
      // Its family still has a valid token (next): reuse detection needs it until none is left.
      assert.equal(await row(consumed.refresh_token), 1, 'consumed over a day ago, family live: kept');
      assert.equal(await row(revoked.refresh_token), 0, 'revoked over a day ago');
      assert.equal(await row(next.refresh_token), 1, 'valid (21 days): kept');
      assert.equal((await refresh(http, next.refresh_token)).status, 200, 'and still works');

      // Expired 21 days after issue: kept one more day, then deleted.
      const aging = await core.tokens.issueForUser(userId);
      await advance(21 * DAY + 60);
      assert.equal((await refresh(http, aging.refresh_token)).status, 401);
      await pass();
      assert.equal(await row(aging.refresh_token), 1, 'expired a minute ago: kept');
      await advance(DAY);
      await pass();
      assert.equal(await row(aging.refresh_token), 0, 'expired over a day ago: deleted');
      assert.equal(await row(consumed.refresh_token), 0, 'its family has no valid token left: deleted');
    });

    test('stale sign-in throttle rows are deleted; running windows and active locks stay', async () => {
      const agent = new UserAgent(http);
      const fields = hiddenFieldsOf((await agent.get(authorizePath({ redirectUri: REDIRECT, state: 'jan' }))).body);
      const attempt = (email: string) => agent.postForm('/oauth/login', { ...fields, email, password: 'wrong-password' });
      const key = (email: string) => count('login_throttle', 'key = $1', [`account:${email}`]);
      const a = 'stale@janitor.test';
      const b = 'locked@janitor.test';
      assert.equal((await attempt(a)).status, 401);
      await advance(10 * 60);
      for (let i = 0; i < 5; i++) assert.equal((await attempt(b)).status, 401);
      assert.equal((await attempt(b)).status, 429);
      await pass();
      assert.equal(await key(a), 1, 'window running: kept');

      await advance(6 * 60); // a's window (15 min) is over; b is locked for 9 more minutes
      const r = await pass();
      assert.ok(r.deleted.loginThrottle >= 1);
      assert.equal(await key(a), 0, 'window over, no lock: deleted');
      assert.equal(await key(b), 1, 'locked: kept');
      assert.equal((await attempt(b)).status, 429, 'and the lock still holds');

      await advance(10 * 60);
      await pass();
      assert.equal(await key(b), 0, 'lock over: deleted');
      assert.equal(await count('login_throttle'), 0, 'the address counter too');
      // Deleting a stale row changes nothing: the next attempt starts a fresh window.
      assert.equal((await attempt(b)).status, 401);
    });

    test('used and expired invitations are kept a day, then deleted; pending ones stay', async () => {
      const userId = ids[USERS[2]!.email]!;
      const now = core.clock.now();
      const inv = (n: string, days: number) => ({
        tokenHash: sha256(n),
        userId,
        accountId: null,
        expiresAt: new Date(now.getTime() + days * DAY * 1000),
      });
      await core.store.repos.invitations.insert(inv('used', 7), now);
      await core.store.repos.invitations.insert(inv('short', 1), now);
      await core.store.repos.invitations.insert(inv('pending', 7), now);
      assert.ok(await core.store.repos.invitations.consume(sha256('used'), now));
      const row = (n: string) => count('invitations', 'token_hash = $1', [sha256(n)]);

      await advance(DAY + 60); // used a day ago; "short" expired a minute ago
      await pass();
      assert.equal(await row('used'), 0);
      assert.equal(await row('short'), 1);
      assert.equal(await row('pending'), 1);
      await advance(DAY);
      await pass();
      assert.equal(await row('short'), 0);
      assert.equal(await row('pending'), 1, 'still pending (7 days)');
    });

    test('with ifDue (the timer), a pass within half an interval of the last one, on any node, is skipped', async () => {
      await pass();
      assert.deepEqual(await core.janitor.run({ ifDue: true }), { ran: false, reason: 'not-due' });
      await advance(5 * 60);
      assert.equal((await core.janitor.run({ ifDue: true })).ran, true);
    });

    test('concurrent passes delete each row once', async () => {
      const userId = ids[USERS[0]!.email]!;
      for (let i = 0; i < 5; i++) await core.tokens.issueCode(userId, REDIRECT, null, null);
      await advance(DAY + 10 * 60);
      const spent = await count('authorization_codes', 'expires_at < $1', [new Date(core.clock.nowMs() - DAY * 1000)]);
      assert.ok(spent >= 5);
      const results = await Promise.all(Array.from({ length: 4 }, () => core.janitor.run()));
      const ran = results.filter((r): r is JanitorResult & { ran: true } => r.ran);
      assert.ok(ran.length >= 1);
      assert.ok(results.every((r) => r.ran || r.reason === 'busy'));
      assert.equal(ran.reduce((n, r) => n + r.deleted.authorizationCodes, 0), spent);
      assert.equal(await count('authorization_codes'), 0);
    });

    test('while another node holds the maintenance lock, a pass answers busy and deletes nothing', { skip: engine !== 'postgres' && 'needs a second connection (PostgreSQL)' }, async () => {
      const userId = ids[USERS[0]!.email]!;
      await core.tokens.issueCode(userId, REDIRECT, null, null);
      await advance(DAY + 10 * 60);
      const other = new pg.Client({ connectionString: db.url });
      await other.connect();
      try {
        await other.query('BEGIN');
        await other.query('SELECT pg_advisory_xact_lock(727274003)');
        assert.deepEqual(await core.janitor.run(), { ran: false, reason: 'busy' });
        assert.ok((await count('authorization_codes', 'expires_at < $1', [new Date(core.clock.nowMs() - DAY * 1000)])) >= 1);
        await other.query('COMMIT');
      } finally {
        await other.end();
      }
      const r = await core.janitor.run();
      assert.equal(r.ran, true);
    });
  });
}
