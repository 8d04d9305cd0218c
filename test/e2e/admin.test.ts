// `npm run admin` on each engine: the first account without a seed file, users, roles,
// subscriptions, a password reset and a key rotation, run as an operator runs them (a
// process on the configured database), with usage errors told apart from refusals.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENGINES, TEST_DATABASE_URL, freshPostgresUrl } from '../support/database.ts';
import { runAdmin } from '../support/admin.ts';


for (const engine of ENGINES) {
  describe(`npm run admin on ${engine}`, () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    before(async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-admin-'));
      env = { PATH: process.env.PATH!, HOME: process.env.HOME!, DATA_DIR: dataDir, PUBLIC_URL: 'https://scan.example.com' };
      let drop = async () => {};
      if (engine === 'postgres') {
        const db = await freshPostgresUrl(TEST_DATABASE_URL!);
        env.DATABASE_URL = db.url;
        drop = db.drop;
      }
      cleanup = async () => {
        await drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      };
    });
    after(() => cleanup());

    const admin = (args: string[], stdin?: string) => runAdmin(env, args, stdin);
    const json = async (args: string[], stdin?: string) => {
      const r = await admin([...args, '--json'], stdin);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      return JSON.parse(r.stdout);
    };
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

    test('snapshots from the admin command: save, list, restore (the data comes back), delete; a bad name exits 1', async () => {
      const saved = await json(['snapshot-save', '--name', 'admin-base']);
      assert.equal(saved.name, 'admin-base');
      const before = (await json(['users'])).length;
      await json(['create-account', '--name', 'After', '--owner', 'after@after.test']);
      assert.equal((await json(['users'])).length, before + 1);
      assert.deepEqual((await json(['snapshots'])).map((x: { name: string }) => x.name), ['admin-base']);
      const restored = await json(['snapshot-restore', '--name', 'admin-base']);
      assert.equal(restored.name, 'admin-base');
      assert.equal((await json(['users'])).length, before, 'the user made after the save is gone');
      assert.deepEqual(await json(['snapshot-delete', '--name', 'admin-base']), { deleted: 'admin-base' });
      const missing = await admin(['snapshot-restore', '--name', 'admin-base']);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /No snapshot named admin-base/);
      assert.equal((await admin(['snapshot-save'])).code, 2);
    });
  });
}
