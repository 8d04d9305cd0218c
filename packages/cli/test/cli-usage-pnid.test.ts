// @engine-independent: the data path is the service's, covered on both engines in test/http.
// `scanbase tag-lists pnid-add` and `scanbase subscriptions usage-report` against a started
// service: P&ID elements added to a 2d list count in the usage report of its subscription
// (named, not only by id); a malformed day is a usage error (exit 2) before any request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ok, signedInCli } from './support/signed-in.ts';

const session = signedInCli({ name: 'usage' });

const json = async (...args: string[]) => JSON.parse(ok(await session.run([...args, '--json'])).stdout);

test('cli: tag-lists pnid-add adds the elements as tags; subscriptions usage-report counts them for their author', async () => {
  const P = ['--project', session.world.projectId];
  const list = await json('tag-lists', 'create', ...P, '--name', 'Sheet', '--type', '2d', '--zone', session.world.zoneId,
    '--data', JSON.stringify({ attachments: [{ id: 'sheet', name: 'Sheet', pages: [{ id: 'p1', index: 1 }] }] }));
  const after = await json('tag-lists', 'pnid-add', list.id, ...P, '--data', JSON.stringify({
    pages: [{ attachmentId: 'sheet', index: 1, instruments: [{ name: 'FV-1', class: 'valve', location: [[0, 0], [2, 2]] }], pipes: [{ name: 'L-1', segments: [[0, 0], [4, 4]] }] }],
  }));
  assert.equal(after.id, list.id);
  assert.ok(after.tagsVersion > list.tagsVersion);
  const rows = await json('subscriptions', 'usage-report', 'A', '--include-deleted');
  const mine = rows.filter((r: any) => r.email === session.world.owner.email && r.projectId.endsWith(session.world.projectId.split(':').pop()));
  assert.equal(mine.reduce((n: number, r: any) => n + r.tagsUploaded, 0), 2);
  const bad = await session.run(['subscriptions', 'usage-report', 'A', '--from', '2026-1-1']);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--from: expected YYYY-MM-DD/);
});
