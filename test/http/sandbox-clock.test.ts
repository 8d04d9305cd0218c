// The sandbox clock both ways (docs/operator-api.md "The sandbox clock", "Moving the clock
// back"): a token issued before the clock moves back stays valid (its expiry is still ahead,
// further ahead than before) and expires when the clock passes its expiry again; a token
// issued while the clock is back expires on the moved clock; another node follows the
// shared offset back as well as forward.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, BASIC_SEED, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';
import { OffsetClock } from '../../src/adapters/clock/offset-clock.ts';
import { createSandboxClock } from '../../src/modules/operator/index.ts';

const OP = { authorization: `Bearer ${OPERATOR_TOKEN}` };
let t: TestApp;
before(async () => {
  t = await testApp();
  await t.seed(BASIC_SEED);
});
after(() => t.close());

const clock = (payload: object) => t.app.inject({ method: 'POST', url: '/_operator/clock', headers: OP, payload });
const logged = async (token: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/2/accounts', headers: { authorization: `Bearer ${token}` } })).statusCode;

test('tokens follow the clock back and forth: valid while their expiry is ahead, refused once it is passed', async () => {
  const start = (await t.app.inject({ method: 'GET', url: '/_operator/clock', headers: OP })).json().offsetSeconds;
  const pair = await t.tokens('olivia@acme.test');
  const ttl = (pair as unknown as { expires_in: number }).expires_in;
  assert.ok(ttl > 60);
  assert.equal(await logged(pair.access_token), 200);
  assert.equal((await clock({ advanceSeconds: -7 * 86400 })).statusCode, 200);
  assert.equal(await logged(pair.access_token), 200, 'a week back, the token issued "later" is still valid');
  const issuedBack = await t.tokens('olivia@acme.test');
  assert.equal(await logged(issuedBack.access_token), 200);
  // Forward past the expiry of the token issued a week back, not past the first one's.
  assert.equal((await clock({ advanceSeconds: ttl + 5 })).statusCode, 200);
  assert.equal(await logged(issuedBack.access_token), 401, 'expired on the moved clock');
  assert.equal(await logged(pair.access_token), 200, 'the first token\'s expiry is still a week ahead');
  assert.equal((await clock({ advanceSeconds: 7 * 86400 })).statusCode, 200);
  assert.equal(await logged(pair.access_token), 401, 'its expiry passed');
  await clock({ advanceSeconds: start - (await t.app.inject({ method: 'GET', url: '/_operator/clock', headers: OP })).json().offsetSeconds });
});

test('another node follows the shared offset back as well as forward', async () => {
  const other = new OffsetClock();
  const follower = createSandboxClock({ store: t.core.store, clock: other });
  const before = t.core.clock.offsetMs;
  await t.core.sandboxClock.advance(-3600);
  await follower.load();
  assert.equal(other.offsetMs, before - 3600 * 1000);
  await t.core.sandboxClock.advance(7200);
  await follower.load();
  assert.equal(other.offsetMs, before + 3600 * 1000);
  await t.core.sandboxClock.advance(-3600);
});
