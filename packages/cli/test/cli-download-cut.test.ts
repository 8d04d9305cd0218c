// @engine-independent: the data path is the service's, covered on both engines in test/http.
// `scanbase download` when the sandbox cuts the blob's body half way (fault `truncate`, issue
// 32): one cut is resumed from the bytes kept (a Range request) and ends whole, MD5 checked,
// exit 0; cuts on every answer exhaust the resumes, exit 8 with a line that says so, no file
// at the destination and the .part kept, and the next run, the fault gone, finishes from that
// .part; the same in parallel ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ok, signedInCli } from './support/signed-in.ts';

const session = signedInCli({ name: 'download-cut' });
const SIZE = 3 * 1024 * 1024 + 123;

test('a cut download resumes from the bytes kept and ends whole; cut every time, it fails keeping its .part, and the next run finishes it', async (t) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-download-cut-'));
  t.after(() => fs.rmSync(work, { recursive: true, force: true }));
  const bytes = crypto.randomBytes(SIZE);
  const source = path.join(work, 'scan.e57');
  fs.writeFileSync(source, bytes);
  const md5 = crypto.createHash('md5').update(bytes).digest('hex');
  const { world } = session;
  const scope = ['--account', world.accountId, '--project', world.projectId];
  const [uploaded] = JSON.parse(ok(await session.run(['upload', ...scope, '--zone', world.zoneId, source, '--json'])).stdout) as { id: string }[];
  const cutBlobReads = (count?: number) => world.operator('POST', '/faults', {
    match: { method: 'GET', path: '/_blobs/**' }, effect: { kind: 'truncate' }, ...(count === undefined ? {} : { count }),
  }) as Promise<{ id: string }>;
  const injected = async (id: string) => ((await world.operator('GET', '/faults')).rules as { id: string; injected: number }[]).find((r) => r.id === id)!.injected;

  const once = await cutBlobReads(1);
  const first = path.join(work, 'first.e57');
  const resumed = JSON.parse(ok(await session.run(['download', uploaded!.id, ...scope, '--out', first, '--json'])).stdout);
  assert.equal(await injected(once.id), 1, 'the first answer was cut');
  assert.equal(resumed.bytes, SIZE);
  assert.equal(crypto.createHash('md5').update(fs.readFileSync(first)).digest('hex'), md5, 'whole and equal after the resume');
  assert.ok(!fs.existsSync(`${first}.part`));
  await world.operator('DELETE', `/faults/${once.id}`);

  const always = await cutBlobReads();
  const second = path.join(work, 'second.e57');
  const failed = await session.run(['download', uploaded!.id, ...scope, '--out', second]);
  assert.notEqual(failed.code, 0, `a download cut on every answer fails: ${failed.stdout}`);
  // One line that says what happened and what to do: the answer was cut, the bytes are kept, run it again.
  assert.match(failed.stderr, /^scanbase: download-interrupted: \S+second\.e57: the answer was cut 6 times, the last after \d+ of \d+ bytes \(.+\); the bytes received are kept in \S+second\.e57\.part: the same download resumes from there\n$/);
  assert.ok((await injected(always.id)) >= 2, 'it resumed before giving up');
  assert.ok(!fs.existsSync(second), 'nothing at the destination');
  const kept = fs.statSync(`${second}.part`).size;
  assert.ok(kept > 0 && kept < SIZE, `the .part keeps the bytes received (${kept} of ${SIZE})`);
  // In parallel ranges (over the threshold) too: each range is fetched again when cut, then the same line.
  const third = path.join(work, 'third.e57');
  const ranged = await session.run(['download', uploaded!.id, ...scope, '--out', third, '--multipart-threshold', '1']);
  assert.equal(ranged.code, 8, ranged.stderr);
  assert.match(ranged.stderr, /^scanbase: download-interrupted: \S+third\.e57: the answer was cut 6 times, .*kept in \S+third\.e57\.part: the same download resumes from there\n$/);
  assert.ok(!fs.existsSync(third));
  await world.operator('DELETE', `/faults/${always.id}`);
  const rangedAgain = JSON.parse(ok(await session.run(['download', uploaded!.id, ...scope, '--out', third, '--multipart-threshold', '1', '--json'])).stdout);
  assert.equal(rangedAgain.bytes, SIZE);
  assert.equal(crypto.createHash('md5').update(fs.readFileSync(third)).digest('hex'), md5);

  const finished = JSON.parse(ok(await session.run(['download', uploaded!.id, ...scope, '--out', second, '--json'])).stdout);
  assert.equal(finished.resumedFrom, kept, 'the next run starts from the .part');
  assert.equal(crypto.createHash('md5').update(fs.readFileSync(second)).digest('hex'), md5);
});
