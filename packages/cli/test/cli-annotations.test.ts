// @engine-independent: the data path is the service's, covered on both engines in test/http.
// `scanbase annotations …` and `scanbase measurements …` against a started service: create
// (with --at / --points parsed, the root zone by default), list, get, comment, update with
// --data, delete; a malformed point is a usage error (exit 2) and creates nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ok, signedInCli } from './support/signed-in.ts';

const session = signedInCli({ name: 'annotations' });

const json = async (...args: string[]) => JSON.parse(ok(await session.run([...args, '--project', session.world.projectId, '--json'])).stdout);

test('cli: annotations create, list, get, comment, update, delete', async () => {
  const a = await json('annotations', 'create', '--title', 'Cracked beam', '--type', 'Issue', '--at', '1.5,-2,3');
  assert.equal(a.title, 'Cracked beam');
  assert.deepEqual(a.position, { x: 1.5, y: -2, z: 3 });
  assert.ok(a.workzoneId.endsWith(session.world.zoneId), 'the root zone by default');
  const c = await json('annotations', 'comment', a.id, '--text', 'Seen on site');
  assert.equal(c.attachedTo, a.id);
  assert.deepEqual((await json('annotations', 'list')).map((x: any) => x.id), [a.id]);
  const updated = await json('annotations', 'update', a.id, '--data', JSON.stringify({ annotationType: 'Resolved', title: 'Fixed', position: { x: 0, y: 0, z: 0 } }));
  assert.equal(updated.annotationType, 'Resolved');
  assert.equal((await json('annotations', 'get', a.id)).title, 'Fixed');
  assert.deepEqual(await json('annotations', 'delete', a.id), { deleted: a.id });
  assert.deepEqual(await json('annotations', 'list'), []);
});

test('cli: measurements create (each point parsed), list, delete; a malformed point is a usage error', async () => {
  const m = await json('measurements', 'create', '--name', 'Slab', '--kind', 'area', '--points', '0,0,0 4,0,0 4,3,0');
  assert.equal(m.kind, 'area');
  assert.equal(m.area, 6);
  assert.deepEqual((await json('measurements', 'list')).map((x: any) => x.id), [m.id]);
  const bad = await session.run(['measurements', 'create', '--name', 'x', '--points', '0,0 1,1,1', '--project', session.world.projectId]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--points: expected X,Y,Z numbers/);
  assert.deepEqual(await json('measurements', 'delete', m.id), { deleted: m.id });
});
