// `npm run admin` snapshot commands on each engine, as an operator runs them: save, list,
// restore (the data comes back), delete, and a name that is missing or unknown.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES } from '../support/database.ts';
import { useAdminDeployment } from '../support/admin.ts';

for (const engine of ENGINES) {
  describe(`npm run admin snapshots on ${engine}`, () => {
    const { admin, json } = useAdminDeployment(engine);

    test('snapshots from the admin command: save, list, restore (the data comes back), delete; a bad name exits 1', async () => {
      await json(['create-account', '--name', 'Before', '--owner', 'before@before.test']);
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
