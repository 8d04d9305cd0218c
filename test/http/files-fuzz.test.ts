// CONTRACT §9 on the file routes: random bodies, queries and path references never
// answer 5xx (sign, register, cover, crops, transformation, blobs, file and crop refs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, createProject, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { upload, bytes } from '../support/files.ts';

const RUNS = 60;
const SEED = Number(process.env.FUZZ_SEED) || Date.now() % 2 ** 31;

let t: TestApp;
let w: World;
let base = '';
let zone = '';
let blob = '';
let fileId = '';

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  const p = await createProject(w.as.projectOwner!);
  base = `${A2}/projects/${uuidOf(p.id)}`;
  zone = uuidOf(p.rootWorkzoneId);
  const [f] = await upload(t, w.as.projectOwner!, p.id, p.rootWorkzoneId, [{ name: 'F', extension: 'e57', content: bytes(20, 1) }]);
  blob = f!.blobName;
  fileId = f!.id;
});
after(() => t.close());

const str = (max = 80) => fc.oneof(fc.string({ maxLength: max }), fc.string({ unit: 'binary', maxLength: max }));
const num = fc.oneof(fc.integer(), fc.double(), fc.constant(-1), fc.constant(2 ** 53), fc.constant(0));
const json: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 });
const uploadItem = fc.record(
  { name: str(), extension: fc.oneof(fc.constantFrom('e57', 'pdf', 'png', 'IFC', '.zip'), str(20)), size: num, md5: fc.oneof(fc.stringMatching(/^[0-9a-f]{32}$/), str(40)), blobName: fc.oneof(fc.constant(blob), str(60)) },
  { requiredKeys: [] },
);
const vec = fc.record({ x: num, y: num, z: num, w: num }, { requiredKeys: [] });

async function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown): Promise<number> {
  const res = await w.as.projectOwner!(method, url, payload);
  assert.ok(res.status < 500, `${method} ${url} ${JSON.stringify(payload)?.slice(0, 300)} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.status;
}

test(`bodies of sign, register, cover, crops, transformation and blobs never answer 5xx (seed ${SEED})`, async () => {
  const targets: [string, 'POST' | 'PUT', fc.Arbitrary<unknown>][] = [
    [`${base}/workzones/${zone}/bulk-files`, 'POST', fc.oneof(fc.array(uploadItem, { maxLength: 4 }), json)],
    [`${base}/workzones/${zone}/bulk-files`, 'PUT', fc.oneof(fc.array(uploadItem, { maxLength: 4 }), json)],
    [`${base}/cover`, 'POST', fc.oneof(uploadItem, json)],
    [`${base}/cover`, 'PUT', fc.oneof(uploadItem, json)],
    [`${base}/files/bulk-transformation`, 'POST', fc.oneof(fc.array(fc.record({ id: fc.oneof(fc.constant(fileId), str()), translation: vec, rotation: vec, scale: vec }, { requiredKeys: [] }), { maxLength: 3 }), json)],
    [`${base}/blobs`, 'POST', fc.oneof(fc.array(fc.oneof(fc.constant(blob), str()), { maxLength: 3 }), json)],
    [`${base}/crops`, 'POST', fc.oneof(fc.record({ workzoneId: fc.oneof(fc.constant(zone), str()), name: str(), crop: str(), actualCrop: str(), rotation: str(), cameraType: str(), cameraState: str(), scan: str(), thumbnailBlobName: fc.oneof(fc.constant(null), str()), oview: num, layers: fc.oneof(fc.constant(null), str()) }, { requiredKeys: [] }), json)],
    [`${base}/files/${fileId}`, 'PUT', json],
  ];
  for (const [url, method, body] of targets) {
    await fc.assert(fc.asyncProperty(body, async (b) => void (await call(method, url, b))), { numRuns: RUNS, seed: SEED });
  }
});

test(`query strings and path references never answer 5xx (seed ${SEED})`, async () => {
  const seg = fc.oneof(str(60), fc.constant(blob), fc.constant('urn:svc:file:00000000-0000-4000-8000-000000000000'), fc.constant('%00'), fc.constant('..'));
  await fc.assert(
    fc.asyncProperty(seg, str(60), async (s, q) => {
      const e = encodeURIComponent(s);
      const qe = encodeURIComponent(q);
      await call('GET', `${base}/files?category=${qe}`);
      await call('GET', `${base}/crops?workzones=${qe}`);
      await call('GET', `${base}/files/${e}`);
      await call('PATCH', `${base}/files/${e}`, { name: q });
      await call('GET', `${base}/blobs/${e}`);
      await call('GET', `${base}/crops/${e}`);
      await call('GET', `/api/accounts/${uuidOf(A2.split('/').pop()!)}/projects/${base.split('/').pop()}/files?category=${qe}`);
    }),
    { numRuns: RUNS, seed: SEED },
  );
});
