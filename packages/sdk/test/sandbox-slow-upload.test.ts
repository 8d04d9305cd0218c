// @engine-independent: the pacing is the sandbox's request hook and the blob route's stream, not the database's.
// A slow request body (docs/sandbox.md "Fault rules", slow-request-body) as a real client
// meets it: the SDK's upload to the signed URL is read by the service at the rule's rate,
// so the client's writes wait (its progress spreads over the paced time) and the whole file
// still arrives with its MD5; the journal names the fault. A JSON body (fetch) is paced too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { uploadFiles } from '../src/node/index.ts';
import { clientWorld } from './support/client-world.ts';

const on = clientWorld({ name: 'slow-upload' });

const MiB = 1024 * 1024;
const lastSeq = async () => (await on.world.operator('GET', '/journal?limit=1')).last as number;

test('a slow request body: the SDK upload is read at the rule\'s rate, its progress spreads over that time, the file arrives whole', async () => {
  const size = 12 * MiB;
  const rate = 3 * MiB; // 4 s for the whole file
  const file = path.join(on.dir, 'slow.e57');
  const bytes = crypto.randomBytes(size);
  fs.writeFileSync(file, bytes);
  await on.world.operator('PUT', '/faults', { rules: [{ match: { method: 'PUT', path: '/_blobs/**' }, effect: { kind: 'slow-request-body', bytesPerSecond: rate } }] });
  const after = await lastSeq();
  const progress: { at: number; bytesDone: number }[] = [];
  const started = performance.now();
  try {
    const [uploaded] = await uploadFiles(on.client, {
      accountId: on.world.accountId, projectId: on.world.projectId, workzoneId: on.world.zoneId, files: [file],
      onProgress: (p) => p.event === 'bytes' && progress.push({ at: performance.now() - started, bytesDone: p.bytesDone }),
    });
    assert.equal(uploaded!.md5, crypto.createHash('md5').update(bytes).digest('hex'));
  } finally {
    await on.world.operator('PUT', '/faults', { rules: [] });
  }
  const [row] = (await on.world.filesOf(on.world.projectId, on.world.zoneId)).filter((f) => f.name === 'slow');
  assert.equal(row?.md5, crypto.createHash('md5').update(bytes).digest('hex'), 'registered whole');

  // What the client may have handed to its socket before the service read anything: its
  // buffers in flight and the loopback's socket buffers, a few MiB. The rest waited for the pace.
  const slack = 6 * MiB;
  const half = progress.find((p) => p.bytesDone >= size / 2)!;
  const last = progress.at(-1)!;
  assert.ok(last.at - half.at >= ((size / 2 - slack / 2) / rate) * 1000 * 0.9, `the second half of the progress took ${Math.round(last.at - half.at)} ms`);
  const { entries } = await on.world.operator('GET', `/journal?after=${after}&method=PUT&path=/_blobs/`);
  assert.equal(entries.length, 1, JSON.stringify(entries));
  assert.equal(entries[0].status, 201);
  assert.equal(entries[0].fault.kind, 'slow-request-body');
  assert.ok(entries[0].durationMs >= ((size - slack) / rate) * 1000 * 0.95, `the service read it in ${entries[0].durationMs} ms`);
  assert.equal(await on.world.metric('scanbase_sandbox_faults_injected_total', { kind: 'slow-request-body' }), 1);
});

test('a slow request body paces a JSON body too (fetch): the route answers as usual once it is read', async () => {
  const body = JSON.stringify({ name: 'Slow zone', parentWorkzoneId: on.world.zoneId, description: 'd'.repeat(1000) });
  const rate = 512; // about 2 s for its 1.1 KB
  await on.world.operator('PUT', '/faults', { rules: [{ match: { operationId: 'createWorkzone' }, effect: { kind: 'slow-request-body', bytesPerSecond: rate } }] });
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(`${on.world.url}/api/2/accounts/${on.world.accountId}/projects/${on.world.projectId}/workzones`, {
      method: 'POST', headers: { authorization: `Bearer ${on.token}`, 'content-type': 'application/json' }, body,
    });
  } finally {
    await on.world.operator('PUT', '/faults', { rules: [] });
  }
  const ms = performance.now() - started;
  const text = await res.text();
  assert.equal(res.status, 201, text);
  assert.equal(JSON.parse(text).description, 'd'.repeat(1000));
  const slice = Math.ceil(rate / 10);
  assert.ok(ms >= ((Buffer.byteLength(body) - slice) / rate) * 1000 * 0.95, `answered after ${Math.round(ms)} ms for ${Buffer.byteLength(body)} bytes at ${rate}/s`);
});
