// @engine-independent: no database; the stores are what is tested.
// Large files through the multipart extension (docs/files.md "Multipart uploads"), against a
// real HTTP server implementing it over the real store adapters (support/multipart-server.ts):
// parts in parallel within the bound, progress per file and overall with rate and ETA,
// cancel and resume sending only what the service lacks, ranged parallel downloads resumed
// and verified; then the same round trip over S3 (s3rver) and Azure (Azurite).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScanbaseClient, downloadRanged, uploadFiles, type UploadProgress } from '../src/node/index.ts';
import { startMultipartServer, type MultipartServer } from './support/multipart-server.ts';
import { startAzurite, startS3rver } from '../../../test/storage/emulators.ts';
import { S3Store, parseS3Url } from '../../../src/adapters/storage/s3.ts';
import { AzureStore } from '../../../src/adapters/storage/azure.ts';

const MiB = 1024 * 1024;
const target = { accountId: 'urn:svc:account:a', projectId: 'urn:svc:project:0b6d1c52-27a8-4d4e-9f53-0b9a1f1f0c11', workzoneId: 'urn:svc:workzone:z' };
let dir: string;
let server: MultipartServer;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-multipart-'));
  server = await startMultipartServer({ partSize: MiB });
});
after(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const md5 = (f: string) => crypto.createHash('md5').update(fs.readFileSync(f)).digest('hex');
function bigFile(name: string, bytes: number): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, crypto.randomBytes(bytes));
  return f;
}
const clientOf = (url: string) => createScanbaseClient({ baseUrl: url, accessToken: 'test-token' });

test('multipart upload: a file over the threshold goes in parts, at most --parallel in flight, with progress per file and overall (rate, ETA); registered with its MD5, which the local-disk store computes (the client hashes the parts only)', async () => {
  const file = bigFile('scan.e57', 20 * MiB + 12345);
  const small = bigFile('notes.txt', 1000);
  let inFlight = 0;
  let most = 0;
  const events: UploadProgress[] = [];
  const counting = createScanbaseClient({
    baseUrl: server.url, accessToken: 'test-token',
  });
  const before = server.partsReceived.length;
  const out = await uploadFiles(counting, {
    ...target, files: [file], parallel: 3, multipartThreshold: 4 * MiB,
    onProgress: (p) => {
      events.push(p);
      inFlight = server.partsStarted.length - server.partsReceived.length;
      most = Math.max(most, inFlight);
    },
  });
  assert.equal(out.length, 1);
  assert.equal(out[0]!.md5, md5(file));
  assert.equal(server.completions.at(-1)!.md5, undefined, 'no whole MD5 sent to a store that computes it');
  assert.equal(server.partsReceived.length - before, 21, 'one PUT per part');
  assert.ok(most <= 3, `at most 3 parts in flight (saw ${most})`);
  const f = server.files.get(out[0]!.id)!;
  assert.deepEqual([f.size, f.md5, f.blobName], [20 * MiB + 12345, md5(file), out[0]!.blobName]);
  const last = events.at(-1)!;
  assert.deepEqual([last.bytesDone, last.fileBytesDone, last.fileBytesTotal, last.filesDone], [f.size, f.size, f.size, 1]);
  assert.ok(events.some((e) => e.bytesPerSecond > 0 && e.etaSeconds !== undefined && e.fileBytesPerSecond! > 0), 'rate and ETA are reported');
  assert.ok(small); // the small file is for the next test's mixed batch
});

test('multipart upload: cancel stops the run; the same call with the journal sends only the parts the service lacks', async () => {
  const file = bigFile('cancel.e57', 24 * MiB);
  const journal = path.join(dir, 'cancel.journal.json');
  const ac = new AbortController();
  const o = { ...target, files: [file], parallel: 4, multipartThreshold: 4 * MiB, journal };
  const start = server.partsReceived.length;
  await assert.rejects(uploadFiles(clientOf(server.url), { ...o, signal: ac.signal, onProgress: (p) => p.bytesDone > 10 * MiB && ac.abort() }),
    (e: unknown) => (e as Error).name === 'AbortError');
  await server.idle();
  const firstRun = server.partsReceived.slice(start);
  assert.ok(firstRun.length >= 6 && firstRun.length < 24, `${firstRun.length} parts before the cancel`);
  const j = JSON.parse(fs.readFileSync(journal, 'utf8'));
  const id = Object.values(j.files as Record<string, { multipart: { id: string } }>)[0]!.multipart.id;
  const held = (await server.store.listParts(server.storeUpload(id))).map((p) => p.partNumber);

  const resumeStart = server.partsReceived.length;
  const [out] = await uploadFiles(clientOf(server.url), o);
  const secondRun = server.partsReceived.slice(resumeStart);
  assert.deepEqual([...held, ...secondRun].sort((a, b) => a - b), Array.from({ length: 24 }, (_, i) => i + 1), 'every part once: none held was sent again');
  assert.equal(out!.md5, md5(file));
  assert.equal(server.files.get(out!.id)!.md5, md5(file));
});

test('ranged download: parallel ranges, interrupted and resumed (only the missing ranges fetched), MD5 checked', async () => {
  const file = bigFile('down.e57', 13 * MiB + 7);
  const [up] = await uploadFiles(clientOf(server.url), { ...target, files: [file], multipartThreshold: 4 * MiB });
  const dest = path.join(dir, 'down-copy.e57');
  const o = { accountId: target.accountId, projectId: target.projectId, blobName: up!.blobName, dest, md5: up!.md5, chunkSize: MiB, parallel: 3 };
  const ac = new AbortController();
  await assert.rejects(downloadRanged(clientOf(server.url), { ...o, signal: ac.signal, onProgress: (p) => p.bytesDone > 8 * MiB && ac.abort() }));
  // What the interrupted run recorded as done (a range whose last byte arrived just before the
  // abort may or may not have been recorded: the state file, not the byte count, is the truth).
  const recorded = (JSON.parse(fs.readFileSync(`${dest}.part.json`, 'utf8')) as { done: number[] }).done;
  assert.ok(recorded.length >= 2 && recorded.length < 14, `${recorded.length} ranges recorded before the interruption`);
  const r = await downloadRanged(clientOf(server.url), o);
  assert.equal(r.rangesKept, recorded.length, 'every range recorded is kept');
  assert.equal(r.rangesFetched, 14 - recorded.length, 'only the missing ranges are fetched');
  assert.equal(md5(dest), md5(file));
  assert.equal(fs.existsSync(`${dest}.part.json`), false);

  // A wrong expected MD5 is refused and nothing is left behind.
  const bad = path.join(dir, 'bad.e57');
  await assert.rejects(downloadRanged(clientOf(server.url), { ...o, dest: bad, md5: '0'.repeat(32) }), /MD5/);
  assert.equal(fs.existsSync(bad) || fs.existsSync(`${bad}.part`), false);
});

for (const kind of ['s3 (s3rver)', 'azure (azurite)'] as const) {
  test(`multipart round trip through ${kind}: parts straight to the store, resumed after a cancel, downloaded in ranges`, async () => {
    const emulator = kind.startsWith('s3') ? await startS3rver() : await startAzurite();
    const store = kind.startsWith('s3')
      ? new S3Store({ ...parseS3Url(`s3://multipart-sdk?endpoint=${emulator.endpoint}&forcePathStyle=true`), credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } })
      : new AzureStore({ container: 'multipart-sdk', connectionString: (emulator as Awaited<ReturnType<typeof startAzurite>>).connectionString });
    await store.init();
    const s = await startMultipartServer({ store });
    try {
      const file = bigFile(`through-${kind.slice(0, 2)}.e57`, 17 * MiB + 3);
      const journal = path.join(dir, `through-${kind.slice(0, 2)}.json`);
      const o = { ...target, files: [file], multipartThreshold: 4 * MiB, journal, parallel: 2 };
      const ac = new AbortController();
      await assert.rejects(uploadFiles(clientOf(s.url), { ...o, signal: ac.signal, onProgress: (p) => p.bytesDone > 6 * MiB && ac.abort() }));
      const [out] = await uploadFiles(clientOf(s.url), o);
      assert.equal(out!.md5, md5(file));
      assert.equal(s.completions.at(-1)!.md5, md5(file), 'the whole MD5 is sent to a store that cannot compute it');
      const dest = path.join(dir, `through-${kind.slice(0, 2)}-copy.e57`);
      await downloadRanged(clientOf(s.url), { accountId: target.accountId, projectId: target.projectId, blobName: out!.blobName, dest, md5: out!.md5, chunkSize: 4 * MiB });
      assert.equal(md5(dest), md5(file));
    } finally {
      await s.stop();
      await emulator.stop();
    }
  });
}
