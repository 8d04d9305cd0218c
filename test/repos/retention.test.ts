// Retention (janitor): done and failed jobs, outbox rows and domain events older than the retention
// period go, younger ones and live jobs stay; spent refresh tokens go only once their
// family has no valid token (reuse detection needs them until then); each kind is
// deleted in batches of at most `batch` rows a pass. On PGlite and, with
// TEST_DATABASE_URL, PostgreSQL.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createStore } from '../../src/adapters/postgres/store.ts';
import type { Repos } from '../../src/core/ports/repositories.ts';
import { purgeCutoffs } from '../../src/modules/maintenance/core/janitor.ts';
import { eventOf } from '../../src/core/events/domain-events.ts';
import { ENGINES, migratedDatabase, type TestDatabase } from '../support/database.ts';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);
const RETENTION = { days: 30, batch: 1000 };

for (const engine of ENGINES) {
  describe(`retention on ${engine}`, () => {
    let db: TestDatabase;
    let repos: Repos;
    let closeStore: () => Promise<void>;
    const userId = crypto.randomUUID();
    const exists = async (table: string, id: string) =>
      (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE id = $1`, [id]))[0]!.n === 1;
    const purge = (retention = RETENTION) => repos.admin.purge(purgeCutoffs(NOW, retention));

    async function job(state: string, updatedAt: Date): Promise<string> {
      const id = crypto.randomUUID();
      await db.sql.query(
        `INSERT INTO jobs (id, kind, payload, state, run_after, created_at, updated_at) VALUES ($1, 'copy', '{}', $2, $3, $3, $3)`,
        [id, state, updatedAt],
      );
      return id;
    }
    async function mail(sentAt: Date): Promise<string> {
      const id = crypto.randomUUID();
      await db.sql.query(`INSERT INTO outbox (id, to_email, subject, body, sent_at) VALUES ($1, 'a@b.test', 's', 'b', $2)`, [id, sentAt]);
      return id;
    }
    async function token(family: string | null, t: { expiresAt: Date; consumedAt?: Date; revokedAt?: Date }): Promise<string> {
      const id = crypto.randomUUID();
      await db.sql.query(
        `INSERT INTO refresh_tokens (id, token_hash, user_id, created_at, expires_at, consumed_at, revoked_at, family_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [id, crypto.randomBytes(16).toString('hex'), userId, ago(40), t.expiresAt, t.consumedAt ?? null, t.revokedAt ?? null, family ?? id],
      );
      return id;
    }

    before(async () => {
      db = await migratedDatabase(engine);
      const store = await createStore(db.sql);
      repos = store.repos;
      closeStore = store.close;
      await db.sql.query(`INSERT INTO users (id, api1_id, email, created_at, updated_at) VALUES ($1, $2, 'r@t.test', $3, $3)`, [
        userId, `u-${userId.slice(0, 8)}`, ago(100),
      ]);
    });
    after(async () => {
      await closeStore();
      await db.drop();
    });

    test('done and failed jobs finished before the retention period go; younger ones and queued or running jobs stay', async () => {
      const oldDone = await job('done', ago(31));
      const oldFailed = await job('failed', ago(45));
      const youngDone = await job('done', ago(29));
      const oldQueued = await job('queued', ago(60));
      const oldRunning = await job('running', ago(60));
      const r = await purge();
      assert.equal(r.jobs, 2);
      assert.equal(await exists('jobs', oldDone), false);
      assert.equal(await exists('jobs', oldFailed), false);
      for (const kept of [youngDone, oldQueued, oldRunning]) assert.equal(await exists('jobs', kept), true);
    });

    test('outbox rows sent before the retention period go; younger ones stay', async () => {
      const old = await mail(ago(31));
      const young = await mail(ago(2));
      const r = await purge();
      assert.equal(r.outbox, 1);
      assert.equal(await exists('outbox', old), false);
      assert.equal(await exists('outbox', young), true);
    });

    test('a spent refresh token of a family with a valid token stays; of a spent family it goes', async () => {
      // Live family: consumed long ago, its successor still valid.
      const liveRoot = await token(null, { expiresAt: ago(-10), consumedAt: ago(20) });
      const liveNext = await token(liveRoot, { expiresAt: ago(-10) });
      // Dead family: consumed, then its successor revoked (reuse detected) long ago.
      const deadRoot = await token(null, { expiresAt: ago(-10), consumedAt: ago(20) });
      const deadNext = await token(deadRoot, { expiresAt: ago(-10), revokedAt: ago(10) });
      // Expired family: its only token expired two days ago.
      const expired = await token(null, { expiresAt: ago(2) });
      // Spent within the forensic day: kept for now.
      const recentRoot = await token(null, { expiresAt: ago(-10), consumedAt: ago(0.5) });
      const recentNext = await token(recentRoot, { expiresAt: ago(-10), revokedAt: ago(0.5) });
      await purge();
      assert.equal(await exists('refresh_tokens', liveRoot), true, 'consumed, but its family is live: kept for reuse detection');
      assert.equal(await exists('refresh_tokens', liveNext), true, 'valid');
      assert.equal(await exists('refresh_tokens', deadRoot), false);
      assert.equal(await exists('refresh_tokens', deadNext), false);
      assert.equal(await exists('refresh_tokens', expired), false);
      assert.equal(await exists('refresh_tokens', recentRoot), true);
      assert.equal(await exists('refresh_tokens', recentNext), true);
    });

    test('domain events that occurred before the retention period go; younger ones stay', async () => {
      const publish = (occurredAt: Date) =>
        repos.events.publish(eventOf('role.created', crypto.randomUUID(), 'role:r', { roleId: crypto.randomUUID() }), occurredAt);
      const old = await publish(ago(31));
      const young = await publish(ago(29));
      const r = await purge();
      assert.equal(r.domainEvents, 1);
      assert.equal(await exists('domain_events', old.id), false);
      assert.equal(await exists('domain_events', young.id), true);
    });

    test('a pass deletes at most `batch` rows of a kind; the next passes take the rest', async () => {
      for (let i = 0; i < 5; i++) await mail(ago(40 + i));
      const first = await purge({ days: 30, batch: 2 });
      assert.equal(first.outbox, 2);
      assert.equal((await purge({ days: 30, batch: 2 })).outbox, 2);
      assert.equal((await purge({ days: 30, batch: 2 })).outbox, 1);
      assert.equal((await purge({ days: 30, batch: 2 })).outbox, 0);
    });

    test('RETENTION_DAYS sets the period: with 7 days, a job done 8 days ago goes', async () => {
      const eightDays = await job('done', ago(8));
      assert.equal((await purge()).jobs, 0);
      // This one and the first test's job done 29 days ago.
      assert.equal((await purge({ days: 7, batch: 1000 })).jobs, 2);
      assert.equal(await exists('jobs', eightDays), false);
    });
  });
}
