// @engine-independent: the conversion's SQL is covered on both engines by test/http/point-clouds.test.ts.
// scanbase files point-cloud against a started service: an uploaded LAS file is converted
// (--wait: exit 0, state done, the input's point count); a .laz whose content is not LAZ
// fails (--wait: exit 1, the reason on standard error); without --wait, the state now.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSdkWorld, type SdkWorld } from '../../sdk/test/support/server.ts';
import { writeSyntheticLas } from '../../../test/pointclouds/support/synthetic.ts';
import { ok, scanbase } from './support/run.ts';

let world: SdkWorld;
let configDir: string;
let work: string;

before(async () => {
  world = await startSdkWorld();
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-pc-config-'));
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-pc-work-'));
});
after(async () => {
  await world?.stop();
  for (const d of [configDir, work]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

const cli = (args: string[], stdin?: string) => scanbase(args, { configDir, stdin });

test('files point-cloud --wait: a LAS upload is converted (exit 0, done, its point count); a .laz that is not LAZ fails (exit 1, wrong_format)', async () => {
  const pair = await world.operator('POST', '/tokens', { email: world.owner.email });
  ok(await cli(['login', '--with-token', '--base-url', world.url], JSON.stringify(pair)));
  const las = path.join(work, 'terrain.las');
  await writeSyntheticLas(las, { version: '1.2', format: 1, count: 20_000 });
  const bad = path.join(work, 'bad.laz');
  fs.writeFileSync(bad, 'ply\nformat ascii 1.0\nelement vertex 0\nend_header\n');
  const target = ['--account', world.accountId, '--project', world.projectId];
  const up = JSON.parse(ok(await cli(['upload', ...target, '--zone', world.zoneId, las, bad, '--json'])).stdout) as { id: string; path: string }[];
  assert.equal(up.length, 2, JSON.stringify(up));
  const lasId = up.find((f) => f.path.endsWith('terrain.las'))?.id ?? assert.fail(JSON.stringify(up));
  const badId = up.find((f) => f.path.endsWith('bad.laz'))?.id ?? assert.fail(JSON.stringify(up));

  const now = JSON.parse(ok(await cli(['files', 'point-cloud', lasId, ...target, '--json'])).stdout);
  assert.ok(['pending', 'queued', 'converting', 'done'].includes(now.state), now.state);

  const done = JSON.parse(ok(await cli(['files', 'point-cloud', lasId, ...target, '--wait', '--wait-timeout', '120', '--json'])).stdout);
  assert.equal(done.state, 'done');
  assert.equal(done.pointCount, 20_000);
  assert.equal(done.percent, 100);

  const failed = await cli(['files', 'point-cloud', badId, ...target, '--wait', '--wait-timeout', '120']);
  assert.equal(failed.code, 1, failed.stderr);
  assert.match(failed.stdout + failed.stderr, /wrong_format/);
});
