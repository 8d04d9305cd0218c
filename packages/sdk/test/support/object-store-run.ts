// The SDK's transfers against a service whose object store is not the local disk: the
// signed URLs point at the store itself, and the SDK must not care which kind it is.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScanbaseClient, downloadFile, uploadFiles } from '../../src/node/index.ts';
import { startSdkWorld } from './server.ts';
import type { Emulator } from '../../../../test/storage/emulators.ts';

/** Uploads three files (one resumed after a cancel), downloads one with a Range resume; stops everything. */
export async function uploadAndDownloadThrough(emulator: Emulator, env: Record<string, string>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-store-run-'));
  const world = await startSdkWorld(env).catch(async (e) => {
    await emulator.stop();
    throw e;
  });
  try {
    const client = createScanbaseClient({ baseUrl: world.url, accessToken: await world.ownerToken() });
    const files = [3_000_000, 200_000, 1].map((n, i) => {
      const f = path.join(dir, `file-${i}.dat`);
      fs.writeFileSync(f, crypto.randomBytes(n));
      return f;
    });
    const o = { accountId: world.accountId, projectId: world.projectId, workzoneId: world.zoneId, files, concurrency: 2, journal: path.join(dir, 'journal.json') };
    const ac = new AbortController();
    await assert.rejects(uploadFiles(client, { ...o, signal: ac.signal, onProgress: (p) => p.bytesDone > 500_000 && ac.abort() }), (e: unknown) => (e as Error).name === 'AbortError');
    const out = await uploadFiles(client, o);
    assert.equal(out.length, 3);
    const res = await client.fetch(`/api/2/accounts/${world.accountId}/projects/${world.projectId}/files`);
    assert.deepEqual(((await res.json()) as { blobName: string }[]).map((f) => f.blobName).sort(), out.map((f) => f.blobName).sort());

    const dest = path.join(dir, 'copy.dat');
    const d = { accountId: world.accountId, projectId: world.projectId, blobName: out[0]!.blobName, dest, md5: out[0]!.md5 };
    const stop = new AbortController();
    await assert.rejects(downloadFile(client, { ...d, signal: stop.signal, onProgress: (p) => p.bytesDone > 1_000_000 && stop.abort() }));
    const r = await downloadFile(client, d);
    assert.ok(r.resumedFrom > 0, 'resumed with a Range');
    assert.deepEqual(fs.readFileSync(dest), fs.readFileSync(files[0]!));
  } finally {
    await world.stop();
    await emulator.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
