// @engine-independent: one started node on the embedded database, killed and started again on its data (the module's SQL runs on both engines in test/http/point-clouds.test.ts).
// kill -9 of the node converting a point cloud (docs/point-clouds.md "The module"): after the
// restart the row still says converting and nothing is served (409); once the dead node's
// lease has expired (the sandbox clock moved past it) the job is claimed again, continues
// from the work directory the killed node left, and ends done with every point, the COPC
// output whole (read back by copc.js).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScanbaseClient, uploadFiles, pointCloudStatus, waitForPointCloud } from '@scanbase/sdk/node';
import { METRICS_TOKEN, OPERATOR_TOKEN, startSdkWorld } from '../../packages/sdk/test/support/server.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { writeSyntheticLas } from '../pointclouds/support/synthetic.ts';
import { readCopcHierarchy } from '../pointclouds/support/copc-read.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-pc-kill-'));
let restarted: RunningServer | undefined;
after(async () => {
  await restarted?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const POINTS = 1_200_000;

test('a node killed (SIGKILL) mid-conversion: nothing is served, and after its lease the job resumes and ends done with every point', { timeout: 600_000 }, async () => {
  const world = await startSdkWorld();
  const las = path.join(tmp, 'site.las');
  await writeSyntheticLas(las, { version: '1.4', format: 6, count: POINTS });
  const refs = { accountId: world.accountId, projectId: world.projectId };
  let client = createScanbaseClient({ baseUrl: world.url, accessToken: await world.ownerToken() });
  const [file] = await uploadFiles(client, { ...refs, workzoneId: world.zoneId, files: [las] });
  const fileId = file!.id;

  // Kill the node once the counting pass has checkpointed (the distribution or indexing is under way).
  const started = Date.now();
  for (;;) {
    const s = await pointCloudStatus(client, refs, fileId);
    assert.notEqual(s.state, 'failed', JSON.stringify(s));
    if (s.state === 'converting' && ['distributing', 'indexing', 'writing'].includes(s.phase ?? '')) break;
    assert.notEqual(s.state, 'done', 'the conversion ended before the node could be killed: use more points');
    assert.ok(Date.now() - started < 300_000, `no progress: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await world.server.kill();
  const workDir = path.join(world.server.dataDir, 'pointclouds', fileId.slice(fileId.lastIndexOf(':') + 1));
  assert.ok(fs.existsSync(path.join(workDir, 'work', 'state.json')), 'the killed node left its checkpoint');

  restarted = await startServer({ OPERATOR_TOKEN, METRICS_TOKEN, SANDBOX: '1', PORT: String(world.server.port) }, { dataDir: world.server.dataDir });
  const operator = (p: string, body: unknown) =>
    fetch(`${restarted!.url}/_operator${p}`, { method: 'POST', headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
  client = createScanbaseClient({ baseUrl: restarted.url, accessToken: (await operator('/tokens', { email: world.owner.email })).access_token });
  const copcPath = `/api/2/accounts/${refs.accountId}/projects/${refs.projectId}/files/${encodeURIComponent(fileId)}/point-cloud/copc`;
  const stale = await pointCloudStatus(client, refs, fileId);
  assert.equal(stale.state, 'converting', 'the dead node\'s lease still holds the job');
  const refused = await fetch(`${restarted.url}${copcPath}`, { headers: { authorization: `Bearer ${(await operator('/tokens', { email: world.owner.email })).access_token}`, range: 'bytes=0-99' } });
  assert.equal(refused.status, 409, 'no half-written output is served');

  // Past the 5-minute lease: the job is claimed again on the next poll.
  await operator('/clock', { advanceSeconds: 360 });
  client = createScanbaseClient({ baseUrl: restarted.url, accessToken: (await operator('/tokens', { email: world.owner.email })).access_token });
  const done = await waitForPointCloud(client, refs, fileId, { intervalMs: 500, timeoutMs: 400_000 });
  assert.equal(done.state, 'done', JSON.stringify(done));
  assert.equal(done.pointCount, POINTS);
  // The row says done once the object is stored; the local copy goes right after.
  for (let i = 0; i < 50 && fs.existsSync(workDir); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(!fs.existsSync(workDir), 'the work directory is removed once done');

  const whole = await fetch(`${restarted.url}${copcPath}`, { headers: { authorization: `Bearer ${(await operator('/tokens', { email: world.owner.email })).access_token}` } });
  assert.equal(whole.status, 200);
  const out = path.join(tmp, 'out.copc.laz');
  fs.writeFileSync(out, Buffer.from(await whole.arrayBuffer()));
  const copc = await readCopcHierarchy(out);
  let sum = 0;
  for (const n of copc.nodes.values()) sum += n.pointCount;
  assert.equal(sum, POINTS);
});
