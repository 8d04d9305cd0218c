// @engine-independent: the data path is the service's, covered on both engines in test/http.
// `scanbase share-links …` against a started service: create (the root zone by default, the
// options parsed, a password kept hashed), list, get, update with --data, delete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ok, signedInCli } from './support/signed-in.ts';

const session = signedInCli({ name: 'share-links' });

const json = async (...args: string[]) => JSON.parse(ok(await session.run([...args, '--project', session.world.projectId, '--json'])).stdout);

test('cli: share-links create, list, get, update, delete', async () => {
  const l = await json('share-links', 'create', '--name', 'For the client', '--password', 'Correct-Horse-9', '--options', 'notes,tags');
  assert.equal(l.name, 'For the client');
  assert.equal(l.passwordProtected, true);
  assert.deepEqual(l.shareOptions, { workzones: false, notes: true, issues: false, measurements: false, crops: false, tags: true });
  assert.ok(l.workzoneId.endsWith(session.world.zoneId), 'the root zone by default');
  assert.match(l.link, /\/share\/[0-9a-f-]{36}$/);
  assert.deepEqual((await json('share-links', 'list')).map((x: any) => x.id), [l.id]);
  const updated = await json('share-links', 'update', l.id, '--data', JSON.stringify({
    name: 'Renamed', sharedWorkzonesIds: null, password: '', expiresAt: null, logoBlob: null, membershipRequired: false, shareOptions: l.shareOptions, savedView: null,
  }));
  assert.equal(updated.passwordProtected, false);
  assert.equal((await json('share-links', 'get', l.id)).name, 'Renamed');
  assert.deepEqual(await json('share-links', 'delete', l.id), { deleted: l.id });
  assert.deepEqual(await json('share-links', 'list'), []);
});

test('cli: share-links create --box-limit sends the box; a malformed box is a usage error (exit 2) before any call, min > max the service\'s 400 naming the axis', async () => {
  const l = await json('share-links', 'create', '--name', 'Pump room only', '--box-limit', '-1.5,0,2 10,20,30.25');
  assert.deepEqual(l.boxLimit, { min: [-1.5, 0, 2], max: [10, 20, 30.25] });
  assert.deepEqual((await json('share-links', 'get', l.id)).boxLimit, l.boxLimit);
  const malformed = await session.run(['share-links', 'create', '--name', 'x', '--box-limit', '1,2,3', '--project', session.world.projectId]);
  assert.equal(malformed.code, 2, malformed.stderr);
  assert.match(malformed.stderr, /--box-limit: expected two corners/);
  const inverted = await session.run(['share-links', 'create', '--name', 'x', '--box-limit', '0,5,0 1,1,1', '--project', session.world.projectId]);
  assert.notEqual(inverted.code, 0);
  assert.match(inverted.stderr, /axis y: 5 > 1/);
  assert.deepEqual((await json('share-links', 'list')).map((x: any) => x.id), [l.id], 'the refused links were not written');
  await json('share-links', 'delete', l.id);
});
