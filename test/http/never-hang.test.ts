// A node that has been up longer than every periodic reload still answers (issue 25): tokens
// issued, refreshed and used after the signing keys' reload period has passed (real time,
// moved with Date.now as the signer reads it) and the sandbox clock past every expiry, with
// every periodic task running at a one-second period meanwhile, before and after a reset.
// On the code before the fix, the first token after the reload period waited for ever: the
// signer re-read its keys on PGlite's only connection from inside the token transaction.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { testApp, BASIC_SEED, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';
import { SIGNING_KEY_RELOAD_SECONDS } from '../../src/core/ports/crypto.ts';

const OP = { authorization: `Bearer ${OPERATOR_TOKEN}` };
/** Every task a sandbox node without SMTP or rate limits runs, at one second. */
const TASK_PERIODS = 'signing-keys=1,sandbox-clock=1,upload-sweeper=1,janitor=1,webhook-relay=1';

let t: TestApp;
let tmp: string;
const realNow = Date.now;
before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-never-hang-'));
  const seedFile = path.join(tmp, 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify(BASIC_SEED));
  t = await testApp({ SEED_FILE: seedFile, TASK_PERIODS, DB_WAIT_TIMEOUT: '5' });
  await t.seed(BASIC_SEED); // what npm start does with SEED_FILE
});
after(async () => {
  Date.now = realNow;
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** One call, failed by name if it does not answer within 8 s (instead of hanging the file). */
async function call(what: string, o: InjectOptions) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within 8 s`)), 8_000);
  });
  try {
    return await Promise.race([t.app.inject(o), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function tokens(what: string) {
  const res = await call(what, { method: 'POST', url: '/_operator/tokens', headers: OP, payload: { email: 'olivia@acme.test' } });
  assert.equal(res.statusCode, 200, `${what}: ${res.body}`);
  return res.json() as { access_token: string; refresh_token: string };
}

async function refreshed(what: string, refreshToken: string) {
  const res = await call(what, {
    method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
  });
  assert.equal(res.statusCode, 200, `${what}: ${res.body}`);
  return res.json() as { access_token: string; refresh_token: string };
}

async function usable(what: string, accessToken: string) {
  const res = await call(what, { method: 'GET', url: '/api/2/accounts', headers: { authorization: `Bearer ${accessToken}` } });
  assert.equal(res.statusCode, 200, `${what}: ${res.body}`);
  const ready = await call(`${what}: /readyz`, { method: 'GET', url: '/readyz' });
  assert.equal(ready.statusCode, 200, `${what}: /readyz ${ready.body}`);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('tokens are issued, refreshed and used on a node up longer than every reload period, before and after a reset', async () => {
  const first = await tokens('the first token');
  await usable('the first token', first.access_token);

  // The keys were loaded more than SIGNING_KEY_RELOAD_SECONDS ago, as the signer tells time.
  Date.now = () => realNow() + (SIGNING_KEY_RELOAD_SECONDS + 5) * 1000;
  // Every periodic task runs (a second each) while tokens are issued.
  await wait(2_500);
  const later = await tokens('a token after the reload period');
  await usable('a token after the reload period', later.access_token);
  const renewed = await refreshed('a refresh after the reload period', later.refresh_token);
  await usable('a refreshed token', renewed.access_token);

  // The service clock past every expiry of the access token (3 h) and the caches.
  const moved = await call('the clock', { method: 'POST', url: '/_operator/clock', headers: OP, payload: { advanceSeconds: 4 * 3600 } });
  assert.equal(moved.statusCode, 200, moved.body);
  await wait(1_500);
  const expired = await call('an expired token', { method: 'GET', url: '/api/2/accounts', headers: { authorization: `Bearer ${renewed.access_token}` } });
  assert.equal(expired.statusCode, 401);
  const again = await refreshed('a refresh after the clock moved', renewed.refresh_token);
  await usable('a token after the clock moved', again.access_token);

  const reset = await call('the reset', { method: 'POST', url: '/_operator/reset', headers: OP });
  assert.equal(reset.statusCode, 200, reset.body);
  await wait(1_500);
  const afterReset = await tokens('a token after the reset');
  await usable('a token after the reset', afterReset.access_token);
  Date.now = () => realNow() + 2 * (SIGNING_KEY_RELOAD_SECONDS + 5) * 1000;
  const last = await tokens('a token two reload periods later');
  await usable('a token two reload periods later', last.access_token);
});
