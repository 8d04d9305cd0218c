// The relay's claim on the outbox (migration 0016, src/modules/mail/postgres/outbox-repo.ts), on
// each engine: a due pending mail is claimed by one caller at a time (FOR UPDATE SKIP LOCKED),
// an attempt is counted and the mail leaves reach until its lease ends; an outcome counts only
// for the attempt that claimed it; a finished mail loses its relay secret; stored mails are
// never claimed.
import { describe, test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { suiteStore } from '../support/suite-store.ts';
import { ENGINES } from '../support/database.ts';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const mail = (to: string, secret = '') => ({
  to, subject: 'S', text: `Open http://x/invitations/${secret || 'none'}`, links: [`http://x/invitations/${secret || 'none'}`],
});

for (const engine of ENGINES) {
  describe(`mail relay claim on ${engine}`, () => {
    const suite = suiteStore(engine);
    const { repos } = suite;

    beforeEach(async () => {
      await suite.db.sql.exec('DELETE FROM outbox');
    });

    test('mail relay claim rule: only pending mails that are due are claimed, each once until its lease ends', async () => {
      await repos.outbox.insert(crypto.randomUUID(), mail('stored@relay.test'), T0);
      const id = crypto.randomUUID();
      await repos.outbox.insert(id, mail('pending@relay.test'), T0, null, { secret: null });

      const first = await repos.outbox.claimDue(T0, at(300), 10);
      assert.deepEqual(first.map((m) => [m.to, m.attempt]), [['pending@relay.test', 1]], 'the stored mail is never relayed');
      assert.deepEqual(await repos.outbox.claimDue(at(299), at(599), 10), [], 'claimed: out of reach within the lease');
      const taken = await repos.outbox.claimDue(at(300), at(600), 10);
      assert.deepEqual(taken.map((m) => [m.id, m.attempt]), [[id, 2]], 'after the lease (a crashed node) another takes it over');

      // The first claim's outcome comes too late: it no longer counts.
      assert.equal(await repos.outbox.settle(id, 1, { state: 'sent', at: at(301) }, '[redacted]'), false);
      assert.equal(await repos.outbox.settle(id, 2, { state: 'sent', at: at(302) }, '[redacted]'), true);
      const [listed] = await repos.outbox.list(1, 'sent');
      assert.deepEqual(listed!.relay, { state: 'sent', attempts: 2, lastError: null, relayedAt: at(302) });
      assert.deepEqual(await repos.outbox.claimDue(at(10_000), at(10_300), 10), [], 'a sent mail is never claimed again');
    });

    test('mail relay claim rule: concurrent claims share the due mails without overlap', async () => {
      for (let i = 0; i < 6; i++) await repos.outbox.insert(crypto.randomUUID(), mail(`c${i}@relay.test`), T0, null, { secret: null });
      const claims = await Promise.all([0, 1, 2].map(() => repos.outbox.claimDue(T0, at(300), 2)));
      const ids = claims.flat().map((m) => m.id);
      assert.equal(ids.length, 6);
      assert.equal(new Set(ids).size, 6, 'no mail in two hands');
    });

    if (engine === 'postgres') {
      test('mail relay claim rule: a mail locked by another node\'s claim in progress is skipped, not waited for', async () => {
        const a = crypto.randomUUID();
        const b = crypto.randomUUID();
        await repos.outbox.insert(a, mail('a@relay.test'), T0, null, { secret: null });
        await repos.outbox.insert(b, mail('b@relay.test'), at(1), null, { secret: null });
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        let claimedInside: string[] = [];
        const inside = suite.store.transaction(async (tx) => {
          claimedInside = (await tx.outbox.claimDue(at(1), at(300), 1)).map((m) => m.id);
          await held;
        });
        while (claimedInside.length === 0) await new Promise((r) => setTimeout(r, 10));
        const outside = await repos.outbox.claimDue(at(1), at(300), 10);
        release();
        await inside;
        assert.deepEqual(claimedInside, [a]);
        assert.deepEqual(outside.map((m) => m.id), [b]);
      });
    }

    test('mail relay claim rule: retries keep the secret; the final outcome (sent or failed) redacts it from the row', async () => {
      const secret = 'tok-ABCDEFGHIJKLMNOP';
      const sent = crypto.randomUUID();
      const failed = crypto.randomUUID();
      await repos.outbox.insert(sent, mail('s@relay.test', secret), T0, 'hash-s', { secret });
      await repos.outbox.insert(failed, mail('f@relay.test', secret), at(1), 'hash-f', { secret });
      const claimed = await repos.outbox.claimDue(at(1), at(300), 10);
      assert.deepEqual(claimed.map((m) => m.secret), [secret, secret], 'the relay gets the secret');
      assert.ok(claimed.every((m) => m.text.includes(secret)));

      assert.equal(await repos.outbox.settle(failed, 1, { state: 'pending', retryAt: at(60), error: '451 try later' }, '[redacted]'), true);
      const retried = await repos.outbox.claimDue(at(60), at(360), 10);
      assert.deepEqual(retried.map((m) => [m.id, m.attempt, m.secret]), [[failed, 2, secret]], 'a retry still has the link');
      assert.equal(await repos.outbox.settle(failed, 2, { state: 'failed', error: '550 no such user' }, '[redacted]'), true);
      assert.equal(await repos.outbox.settle(sent, 1, { state: 'sent', at: at(2) }, '[redacted]'), true);

      const rows = await suite.db.sql.query<{ id: string; body: string; links: string[]; relay_secret: string | null; secret_hash: string | null }>(
        'SELECT id, body, links, relay_secret, secret_hash FROM outbox',
      );
      for (const r of rows) {
        assert.ok(!r.body.includes(secret) && !JSON.stringify(r.links).includes(secret), `${r.id}: the token is gone`);
        assert.ok(r.body.includes('[redacted]'));
        assert.equal(r.relay_secret, null);
        assert.equal(r.secret_hash, null);
      }
      const [f] = await repos.outbox.list(10, 'failed');
      assert.deepEqual(f!.relay, { state: 'failed', attempts: 2, lastError: '550 no such user', relayedAt: null });
    });

    test('mail relay claim rule: a mail whose secret is kept for the outbox\'s readers keeps it after relay, until spent', async () => {
      const secret = 'tok-KEPT-FOR-OPERATOR';
      const id = crypto.randomUUID();
      await repos.outbox.insert(id, mail('k@relay.test', secret), T0, 'hash-k', { secret: null });
      const [c] = await repos.outbox.claimDue(T0, at(300), 10);
      assert.equal(await repos.outbox.settle(id, c!.attempt, { state: 'sent', at: at(1) }, '[redacted]'), true);
      assert.ok((await repos.outbox.list(1))[0]!.text.includes(secret));
      await repos.outbox.redactSecret('hash-k', secret, '[redacted]');
      assert.ok(!(await repos.outbox.list(1))[0]!.text.includes(secret));
    });
  });
}
