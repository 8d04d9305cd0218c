// The OAuth repository on every engine (CONTRACT §4): codes single use and expiring,
// refresh tokens single use (one atomic statement: of N concurrent uses exactly one
// wins), at most N valid per user (the newest kept), revocation.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { suiteStore } from '../support/suite-store.ts';
import { ENGINES } from '../support/database.ts';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const hash = () => crypto.randomBytes(32).toString('hex');

for (const engine of ENGINES) {
  describe(`OAuth repository on ${engine}`, () => {
    const suite = suiteStore(engine);
    const repos = suite.repos;
    let seq = 0;
    const user = async () =>
      (
        await repos.users.insert(
          {
            id: crypto.randomUUID(), email: `u${++seq}@oauth.test`, firstName: '', lastName: '', company: '', title: '',
            passwordHash: null, invitedBy: null, invitedAt: null,
          },
          T0,
        )
      ).id;
    const code = async (userId: string, expiresAt = at(5 * MIN)) => {
      const codeHash = hash();
      await repos.oauth.insertCode(
        { codeHash, userId, redirectUri: 'http://localhost:3000/cb', codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', expiresAt, clientId: 'survey-app' },
        T0,
      );
      return codeHash;
    };
    const refresh = async (userId: string, createdAt = T0, expiresAt = at(21 * DAY)) => {
      const tokenHash = hash();
      const id = crypto.randomUUID();
      await repos.oauth.insertRefreshToken({ id, tokenHash, userId, expiresAt, clientId: 'survey-app' }, createdAt);
      return { id, tokenHash };
    };


    test('a code is consumed once: the second consumeCode answers null', async () => {
      const userId = await user();
      const h = await code(userId);
      const rec = await repos.oauth.consumeCode(h, at(MIN));
      assert.deepEqual(rec, {
        codeHash: h,
        userId,
        redirectUri: 'http://localhost:3000/cb',
        codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        // The issue time (insertCode's `now`) comes back too: the token service refuses a code
        // issued at or before the user's revocation point (issue 26 item 1).
        createdAt: T0,
        expiresAt: at(5 * MIN),
        // The client the authorization request named: the tokens from the code carry it.
        clientId: 'survey-app',
      });
      assert.equal(await repos.oauth.consumeCode(h, at(MIN)), null);
      assert.equal(await repos.oauth.consumeCode(hash(), at(MIN)), null, 'unknown code');
    });

    test('a code expires: usable just before expiresAt, not at it', async () => {
      const userId = await user();
      const late = await code(userId);
      assert.equal(await repos.oauth.consumeCode(late, at(5 * MIN)), null);
      assert.equal(await repos.oauth.consumeCode(late, at(6 * MIN)), null);
      const justInTime = await code(userId);
      assert.ok(await repos.oauth.consumeCode(justInTime, at(5 * MIN - 1)));
    });

    test('of 10 concurrent consumeCode calls exactly one wins', async () => {
      const h = await code(await user());
      const results = await Promise.all(Array.from({ length: 10 }, () => repos.oauth.consumeCode(h, at(MIN))));
      assert.equal(results.filter(Boolean).length, 1);
    });

    test('a refresh token is consumed once; expired, revoked and unknown ones answer null', async () => {
      const userId = await user();
      const t = await refresh(userId);
      assert.equal(await repos.oauth.refreshTokenOwner(t.tokenHash), userId);
      assert.deepEqual(await repos.oauth.consumeRefreshToken(t.tokenHash, at(DAY)), { id: t.id, userId, expiresAt: at(21 * DAY), familyId: t.id, clientId: 'survey-app' });
      assert.equal(await repos.oauth.consumeRefreshToken(t.tokenHash, at(DAY)), null);

      const expired = await refresh(userId);
      assert.equal(await repos.oauth.consumeRefreshToken(expired.tokenHash, at(21 * DAY)), null);

      const revoked = await refresh(userId);
      assert.equal(await repos.oauth.revokeRefreshToken(revoked.tokenHash, at(MIN)), true);
      assert.equal(await repos.oauth.revokeRefreshToken(revoked.tokenHash, at(MIN)), false, 'already revoked');
      assert.equal(await repos.oauth.consumeRefreshToken(revoked.tokenHash, at(2 * MIN)), null);

      assert.equal(await repos.oauth.consumeRefreshToken(hash(), T0), null);
      assert.equal(await repos.oauth.refreshTokenOwner(hash()), null);
      assert.equal(await repos.oauth.revokeRefreshToken(hash(), T0), false);
    });

    test('of 10 concurrent consumeRefreshToken calls exactly one wins', async () => {
      const t = await refresh(await user());
      const results = await Promise.all(Array.from({ length: 10 }, () => repos.oauth.consumeRefreshToken(t.tokenHash, at(MIN))));
      assert.equal(results.filter(Boolean).length, 1);
    });

    test('revokeExcessRefreshTokens keeps the newest N valid tokens of that user only', async () => {
      const [userId, other] = [await user(), await user()];
      const tokens = [];
      for (let i = 0; i < 13; i++) tokens.push(await refresh(userId, at(i * MIN)));
      const others = [await refresh(other, at(0)), await refresh(other, at(MIN))];
      // Used and expired tokens are not valid: they neither count nor get revoked.
      const used = await refresh(userId, at(20 * MIN));
      assert.ok(await repos.oauth.consumeRefreshToken(used.tokenHash, at(21 * MIN)));
      await refresh(userId, at(-22 * DAY), at(-DAY));

      const now = at(30 * MIN);
      assert.equal(await repos.oauth.countValidRefreshTokens(userId, now), 13);
      assert.equal(await repos.oauth.revokeExcessRefreshTokens(userId, 10, now), 3);
      assert.equal(await repos.oauth.countValidRefreshTokens(userId, now), 10);
      assert.equal(await repos.oauth.revokeExcessRefreshTokens(userId, 10, now), 0, 'nothing more to revoke');
      assert.equal(await repos.oauth.countValidRefreshTokens(other, now), 2);

      for (const t of tokens.slice(0, 3)) assert.equal(await repos.oauth.consumeRefreshToken(t.tokenHash, now), null, 'oldest revoked');
      for (const t of tokens.slice(3)) assert.ok(await repos.oauth.consumeRefreshToken(t.tokenHash, now), 'newest kept');
      for (const t of others) assert.ok(await repos.oauth.consumeRefreshToken(t.tokenHash, now));
    });

    test('tokens with the same creation time are ranked by id, deterministically', async () => {
      const userId = await user();
      const tokens = [];
      for (let i = 0; i < 4; i++) tokens.push(await refresh(userId, T0));
      assert.equal(await repos.oauth.revokeExcessRefreshTokens(userId, 2, at(MIN)), 2);
      const kept = tokens.map((t) => t.id).sort().reverse().slice(0, 2);
      for (const t of tokens) {
        const ok = await repos.oauth.consumeRefreshToken(t.tokenHash, at(MIN));
        assert.equal(Boolean(ok), kept.includes(t.id));
      }
    });
  });
}
