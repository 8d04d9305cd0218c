// signInWithLoopback: the browser's last page says "Signed in" only once the code has been
// exchanged for tokens, in the look of the service's pages; a failed exchange, a denial or
// a refusal says so, and the sign-in fails. The service is played by a fetch of the test's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signInWithLoopback } from '../src/node/index.ts';

const PAIR = { access_token: 'a.b.c', refresh_token: 'r', token_type: 'Bearer', expires_in: 10800, user_id: 'urn:svc:user:1' };

/** Plays the browser: takes the authorize address the sign-in opens and follows the redirect the service would make. */
function browser(answer: (state: string) => string) {
  let page: Promise<{ status: number; text: string; at: number }> | undefined;
  return {
    open: (url: string) => {
      const u = new URL(url);
      const redirect = new URL(u.searchParams.get('redirect_uri')!);
      redirect.search = answer(u.searchParams.get('state')!);
      page = fetch(redirect).then(async (r) => ({ status: r.status, text: await r.text(), at: Date.now() }));
    },
    page: () => page!,
  };
}

test('loopback sign-in: the page says "Signed in" only after the exchange answered, styled like the service\'s pages', async () => {
  let exchangedAt = 0;
  const slowExchange: typeof fetch = async () => {
    await new Promise((r) => setTimeout(r, 300));
    exchangedAt = Date.now();
    return new Response(JSON.stringify(PAIR), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const b = browser((state) => `code=the-code&state=${state}`);
  const tokens = await signInWithLoopback({ baseUrl: 'http://service.test', open: b.open, fetch: slowExchange });
  assert.equal(tokens.accessToken, PAIR.access_token);
  const page = await b.page();
  assert.equal(page.status, 200);
  assert.match(page.text, /<h1>Signed in<\/h1>/);
  assert.match(page.text, /<style>body\{font-family:system-ui/, 'the sign-in pages\' look');
  assert.ok(page.at >= exchangedAt && exchangedAt > 0, 'answered after the exchange');
});

test('loopback sign-in: a failed exchange shows "Sign-in failed" with the reason, and the sign-in fails', async () => {
  const refusing: typeof fetch = async () =>
    new Response(JSON.stringify({ error: 'invalid_grant', error_description: 'The code is expired, used or unknown' }), { status: 400, headers: { 'content-type': 'application/json' } });
  const b = browser((state) => `code=old&state=${state}`);
  await assert.rejects(signInWithLoopback({ baseUrl: 'http://service.test', open: b.open, fetch: refusing }), /expired, used or unknown/);
  const page = await b.page();
  assert.equal(page.status, 502);
  assert.match(page.text, /<h1>Sign-in failed<\/h1>/);
  assert.doesNotMatch(page.text, /Signed in/);
  assert.match(page.text, /expired, used or unknown/);
});

test('loopback sign-in: a denied approval shows "Sign-in failed", never "Signed in"', async () => {
  const unused: typeof fetch = async () => assert.fail('no exchange after a denial');
  const b = browser((state) => `error=access_denied&state=${state}`);
  await assert.rejects(signInWithLoopback({ baseUrl: 'http://service.test', open: b.open, fetch: unused }), /access_denied/);
  const page = await b.page();
  assert.equal(page.status, 400);
  assert.match(page.text, /The access was denied/);
});
