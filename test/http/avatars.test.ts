// GET /avatars/{id}.svg (src/modules/users/http/pages/avatar.ts): public, so it shows nothing of the user
// and tells nothing of his existence (docs/security.md "Existence across tenants"): a
// pattern drawn from the id alone, 200 for any UUID (a user's or not), the same for the id
// in any case; 404 user-not-found for a name that is not a UUID.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';

let t: TestApp;
let ids: Record<string, string>;
before(async () => {
  t = await testApp();
  const seeded = await t.seed({
    users: [
      { email: 'olivia@acme.test', password: 'olivia-password-1', firstName: 'Olivia', lastName: 'Owner' },
      { email: 'zed@acme.test', password: 'zed-password-1' },
    ],
  });
  ids = Object.fromEntries(seeded.users.map((u: { email: string; id: string }) => [u.email, u.id]));
});
after(() => t?.close());

const avatar = (name: string) => t.app.inject({ method: 'GET', url: `/avatars/${name}` });

test('existence: an avatar shows no initials and answers alike for a user and for an id no user has', async () => {
  const user = await avatar(`${ids['olivia@acme.test']}.svg`);
  const nobody = await avatar('00000000-0000-4000-8000-000000000000.svg');
  for (const res of [user, nobody]) {
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^image\/svg\+xml/);
    assert.doesNotMatch(res.body, /<text/, 'no text: no initials');
    assert.doesNotMatch(res.body, /OO|Olivia/i);
  }
  assert.deepEqual(Object.keys(user.headers).sort(), Object.keys(nobody.headers).sort());
  assert.equal(user.headers['cache-control'], nobody.headers['cache-control']);
  assert.notEqual(user.body, nobody.body, 'each id has its own pattern');
});

test('an avatar is the same for the id in any case, and stable', async () => {
  const id = ids['zed@acme.test']!;
  const lower = await avatar(`${id}.svg`);
  assert.equal((await avatar(`${id.toUpperCase()}.svg`)).body, lower.body);
  assert.equal((await avatar(`${id}.svg`)).body, lower.body);
});

test('a name that is not a UUID answers 404 user-not-found', async () => {
  const res = await avatar('not-a-uuid.svg');
  assert.equal(res.statusCode, 404);
  assert.match(res.body, /user-not-found/);
});
