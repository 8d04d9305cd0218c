// `npm run admin` on each engine: the first account without a seed file, users, roles,
// subscriptions, a password reset and a key rotation, run as an operator runs them (a
// process on the configured database), with usage errors told apart from refusals.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES } from '../support/database.ts';
import { useAdminDeployment } from '../support/admin.ts';

// The snapshot commands are test/e2e/admin-snapshots.test.ts: each command is a process that
// opens the database (3-5 CPU s on PGlite), and one file of them all came within 80 s of the
// file limit in a CI run.
for (const engine of ENGINES) {
  describe(`npm run admin on ${engine}`, () => {
    const { admin, json } = useAdminDeployment(engine);
    const LINK = /^https:\/\/scan\.example\.com\/invitations\/[A-Za-z0-9_-]{20,}$/;

    test('the first account and its owner without a seed file: a one-time set-password link, or the password from stdin', async () => {
      const acme = await json(['create-account', '--name', 'Acme', '--owner', 'olivia@acme.test']);
      assert.equal(acme.account.name, 'Acme');
      assert.match(acme.setPasswordLink, LINK);
      const beta = await json(['create-account', '--name', 'Beta', '--owner', 'bob@beta.test', '--password-stdin'], 'bob-password-1\n');
      assert.equal(beta.setPasswordLink, null, 'a password was given: no link');
      const again = await json(['create-account', '--name', 'Acme', '--owner', 'olivia@acme.test']);
      assert.equal(again.account.id, acme.account.id, 'idempotent: the same account');
      const users = await json(['users']);
      assert.deepEqual(users.map((u: { email: string; password: boolean }) => [u.email, u.password]), [['bob@beta.test', true], ['olivia@acme.test', false]]);
      const short = await admin(['create-account', '--name', 'Gamma', '--owner', 'g@g.test', '--password-stdin'], 'short\n');
      assert.equal(short.code, 1);
      assert.match(short.stderr, /8 to 1024 characters/);
    });

    test('subscriptions, account roles (a new user gets a link), a password reset and a signing-key rotation', async () => {
      const pro = await json(['create-subscription', '--account', 'Acme', '--name', 'Pro', '--scans', '100', '--start', '2026-01-01T00:00:00Z']);
      assert.equal(pro.scanCapacity, 100);
      assert.deepEqual((await json(['subscriptions', '--account', 'Acme'])).map((s: { name: string }) => s.name), ['Pro']);
      const role = await json(['add-role', '--account', 'Acme', '--email', 'mark@acme.test', '--role', 'administrator']);
      assert.match(role.setPasswordLink, LINK);
      const reset = await json(['reset-password', '--email', 'bob@beta.test']);
      assert.match(reset.setPasswordLink, LINK);
      const bob = (await json(['users'])).find((u: { email: string }) => u.email === 'bob@beta.test');
      assert.equal(bob.password, false, 'the old password no longer signs in');
      const first = await json(['rotate-signing-key']);
      const second = await json(['rotate-signing-key']);
      assert.notEqual(first.kid, second.kid);
      assert.ok(second.retiring.some((k: { kid: string }) => k.kid === first.kid), 'the previous key retires later, not now');
    });

    test('usage errors exit 2 with the usage; refusals exit 1 naming what is wrong', async () => {
      const unknown = await admin(['bogus']);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /Unknown command bogus[\s\S]*Usage: npm run admin/);
      const missing = await admin(['create-account', '--name', 'X']);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /--owner is required/);
      const badRole = await admin(['add-role', '--account', 'Acme', '--email', 'x@acme.test', '--role', 'king']);
      assert.equal(badRole.code, 2);
      const noAccount = await admin(['subscriptions', '--account', 'Nowhere']);
      assert.equal(noAccount.code, 1);
      assert.match(noAccount.stderr, /No account Nowhere/);
    });
  });
}
