// @engine-independent: the job's data path is covered on both engines in test/http/mesh-export.test.ts.
// Export to mesh (vendor postExportToMesh, docs/mesh-export.md) against a started service, as
// an integrator's client meets it: a LAS scan uploaded with the SDK, the export asked with the
// client's fetch, the model file not listed until the node's job runner (its own worker
// process, Open3D) has built it, then downloaded with the SDK, its MD5 checked: a real
// triangle mesh of the sphere the scan samples. Skipped where Debian's Python has no Open3D
// (npm run setup installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { downloadFile, uploadFiles } from '../src/node/index.ts';
import { clientWorld } from './support/client-world.ts';
import { lasFileOf } from '../../../test/support/console.ts';

const MESHER = process.env.MESH_PYTHON || '/usr/bin/python3';
const hasMesher = spawnSync(MESHER, ['-c', 'import open3d'], { stdio: 'ignore' }).status === 0;
const on = clientWorld({ name: 'mesh-export' });

/** A Fibonacci sphere of radius 1 m around (10, 20, 5). */
const onSphere = (count: number) => (i: number): [number, number, number] => {
  const y = 1 - (2 * (i + 0.5)) / count;
  const r = Math.sqrt(1 - y * y);
  const phi = i * Math.PI * (3 - Math.sqrt(5));
  return [10 + r * Math.cos(phi), 20 + y, 5 + r * Math.sin(phi)];
};

test('a started service builds the mesh of an uploaded scan: not listed until done, then a downloadable OBJ of the sphere', { skip: !hasMesher && `no Open3D for ${MESHER} (npm run setup installs python3-open3d)` }, async () => {
  const { world, client } = on;
  const scan = path.join(on.dir, 'sphere.las');
  fs.writeFileSync(scan, lasFileOf(4000, onSphere(4000)));
  const [uploaded] = await uploadFiles(client, { accountId: world.accountId, projectId: world.projectId, workzoneId: world.zoneId, files: [scan] });

  const project = `/api/2/accounts/${world.accountId}/projects/${world.projectId}`;
  const asked = await client.fetch(`${project}/jobs/export-to-mesh`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scans: [uploaded!.id], name: 'Sphere mesh', outputFormat: 'obj', resolution: 0.05, workzoneId: world.zoneId }),
  });
  assert.equal(asked.status, 201);
  const { jobId, file } = (await asked.json()) as { jobId: string; file: { id: string; blobName: string; extension: string } };
  assert.match(jobId, /:workflowjob:/);
  assert.equal(file.extension, 'obj');

  // The file answers 404 until the job is done (the client polls as it would for any job).
  const fileUrl = `${project}/files/${encodeURIComponent(file.id)}`;
  let done: { size: number; md5: string; blobName: string } | undefined;
  for (const deadline = Date.now() + 120_000; !done;) {
    const res = await client.rawFetch(new URL(fileUrl, world.url).href, { headers: { authorization: `Bearer ${on.token}` } });
    if (res.status === 200) done = (await res.json()) as typeof done;
    else {
      assert.equal(res.status, 404, await res.text());
      assert.ok(Date.now() < deadline, 'the mesh was not built within 2 minutes');
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  assert.equal(done!.blobName, file.blobName);

  const dest = path.join(on.dir, 'sphere.obj');
  const got = await downloadFile(client, { accountId: world.accountId, projectId: world.projectId, blobName: done!.blobName, dest, md5: done!.md5 });
  assert.equal(got.bytes, done!.size);
  const lines = fs.readFileSync(dest, 'utf8').split('\n');
  const vertices = lines.filter((l) => l.startsWith('v ')).map((l) => l.split(/\s+/).slice(1, 4).map(Number));
  const faces = lines.filter((l) => l.startsWith('f ')).map((l) => l.split(/\s+/).slice(1).map((v) => Number(v.split('/')[0])));
  assert.ok(vertices.length > 100 && faces.length > 200, `${vertices.length} vertices, ${faces.length} faces`);
  for (const f of faces) for (const k of f) assert.ok(Number.isInteger(k) && k >= 1 && k <= vertices.length, `face index ${k}`);
  const mean = vertices.reduce((sum, [x, y, z]) => sum + Math.hypot(x! - 10, y! - 20, z! - 5), 0) / vertices.length;
  assert.ok(Math.abs(mean - 1) < 0.1, `mean distance to the centre ${mean}`);
});
