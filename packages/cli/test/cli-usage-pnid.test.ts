// @engine-independent: the data path is the service's, covered on both engines in test/http.
// `scanbase tag-lists pnid-add` and `scanbase subscriptions usage-report` against a started
// service: P&ID elements added to a 2d list count in the usage report of its subscription
// (named, not only by id); a malformed day is a usage error (exit 2) before any request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSdkWorld, type SdkWorld } from '../../sdk/test/support/server.ts';
import { scanbase, type Run } from './support/run.ts';

let world: SdkWorld;
let configDir: string;

before(async () => {
  world = await startSdkWorld();
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-usage-'));
  const pair = await world.operator('POST', '/tokens', { email: world.owner.email });
  const login = await scanbase(['login', '--with-token', '--base-url', world.url], { configDir, stdin: JSON.stringify(pair) });
  assert.equal(login.code, 0, login.stderr);
});
after(async () => {
  await world?.stop();
  if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
});

const ok = (r: Run) => {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return r;
};
const json = async (...args: string[]) => JSON.parse(ok(await scanbase([...args, '--json'], { configDir })).stdout);

test('cli: tag-lists pnid-add adds the elements as tags; subscriptions usage-report counts them for their author', async () => {
  const P = ['--project', world.projectId];
  const list = await json('tag-lists', 'create', ...P, '--name', 'Sheet', '--type', '2d', '--zone', world.zoneId,
    '--data', JSON.stringify({ attachments: [{ id: 'sheet', name: 'Sheet', pages: [{ id: 'p1', index: 1 }] }] }));
  const after = await json('tag-lists', 'pnid-add', list.id, ...P, '--data', JSON.stringify({
    pages: [{ attachmentId: 'sheet', index: 1, instruments: [{ name: 'FV-1', class: 'valve', location: [[0, 0], [2, 2]] }], pipes: [{ name: 'L-1', segments: [[0, 0], [4, 4]] }] }],
  }));
  assert.equal(after.id, list.id);
  assert.ok(after.tagsVersion > list.tagsVersion);
  const rows = await json('subscriptions', 'usage-report', 'A', '--include-deleted');
  const mine = rows.filter((r: any) => r.email === world.owner.email && r.projectId.endsWith(world.projectId.split(':').pop()));
  assert.equal(mine.reduce((n: number, r: any) => n + r.tagsUploaded, 0), 2);
  const bad = await scanbase(['subscriptions', 'usage-report', 'A', '--from', '2026-1-1'], { configDir });
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--from: expected YYYY-MM-DD/);
});
