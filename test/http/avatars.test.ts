// GET /avatars/{id}.svg (src/http/pages/routes.ts over the users module's UserProfiles):
// a user's initials, first and last names first, else the e-mail's first letter; 404
// user-not-found for an unknown id or a name that is not a UUID.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';

let t: TestApp;
let ids: Record<string, string>;
before(async () => {
  t = await testApp();
  const seeded = await t.seed({
    users: [
      { email: 'olivia@acme.test', password: 'olivia-password-1', firstName: 'olivia', lastName: 'owner' },
      { email: 'zed@acme.test', password: 'zed-password-1' },
    ],
  });
  ids = Object.fromEntries(seeded.users.map((u: { email: string; id: string }) => [u.email, u.id]));
});
after(() => t?.close());

const avatar = (name: string) => t.app.inject({ method: 'GET', url: `/avatars/${name}` });

test("an avatar shows the upper-cased initials of the user's first and last names", async () => {
  const res = await avatar(`${ids['olivia@acme.test']}.svg`);
  assert.equal(res.statusCode, 200);
  assert.match(res.headers['content-type'] as string, /^image\/svg\+xml/);
  assert.match(res.body, />OO<\/text>/);
});

test("a user without names shows the e-mail's first letter; the id is matched in any case", async () => {
  const res = await avatar(`${ids['zed@acme.test']!.toUpperCase()}.svg`);
  assert.equal(res.statusCode, 200);
  assert.match(res.body, />Z<\/text>/);
});

test('an unknown user or a name that is not a UUID answers 404 user-not-found', async () => {
  for (const name of ['00000000-0000-4000-8000-000000000000.svg', 'not-a-uuid.svg']) {
    const res = await avatar(name);
    assert.equal(res.statusCode, 404, name);
    assert.match(res.body, /user-not-found/);
  }
});
