// @engine-independent: runs once, in the PGlite pass (see scripts/test.mjs).
// The local-disk store in a started server (npm start's entry point, PGlite file under
// DATA_DIR): objects land in DATA_DIR/blobs and survive a restart; kill -9 in the middle of
// a large upload leaves no object (only a hidden temporary file, swept once idle).
// The test signs URLs itself with the deployment's key, read from the database before the
// server starts (migrations create it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startServer, freePort, type RunningServer } from '../support/server.ts';
import { openPglite } from '../../src/adapters/postgres/pglite.ts';
import { migrate } from '../../src/adapters/postgres/migrate.ts';
import { LocalDiskStore } from '../../src/adapters/storage/local-disk.ts';
import { md5Hex } from './contract.ts';


test('local disk in a started server: PUT and GET through the signed URLs, a restart keeps the object, kill -9 mid-upload keeps nothing', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-storage-'));
  let server: RunningServer | undefined;
  try {
    const sql = await openPglite(path.join(dataDir, 'pglite'));
    let key: string;
    try {
      await migrate(sql);
      key = (await sql.query<{ value: string }>(`SELECT value FROM settings WHERE key = 'storage.signing_key'`))[0]!.value;
    } finally {
      await sql.close();
    }
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { PORT: String(port), PUBLIC_URL: url };
    const signer = new LocalDiskStore({
      root: path.join(dataDir, 'unused'),
      publicUrl: url,
      clock: { now: () => new Date(), nowMs: () => Date.now() },
      signingKey: async () => Buffer.from(key, 'utf8'),
    });

    server = await startServer(env, { dataDir });
    const project = crypto.randomUUID();
    const blob = `${project}/scan.e57`;
    const body = crypto.randomBytes(3 * 1024 * 1024 + 5);
    const signed = await signer.signUpload({ key: blob, size: body.length, md5Hex: md5Hex(body), expiresInSeconds: 600 }, new Date());
    const put = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: new Uint8Array(body) });
    assert.equal(put.status, 201, await put.text());
    assert.ok(fs.existsSync(path.join(dataDir, 'blobs', project, 'scan.e57')), 'stored under DATA_DIR/blobs');

    await server.stop();
    server = await startServer(env, { dataDir });
    const download = await signer.signDownload({ key: blob, contentType: 'application/octet-stream', expiresInSeconds: 600 }, new Date());
    const got = await fetch(download, { headers: { range: 'bytes=100-199' } });
    assert.equal(got.status, 206);
    assert.ok(Buffer.from(await got.arrayBuffer()).equals(body.subarray(100, 200)), 'the object survived the restart');

    // kill -9 while a 64 MiB upload is half way through.
    const big = `${project}/big.e57`;
    const size = 64 * 1024 * 1024;
    const chunk = crypto.randomBytes(1024 * 1024);
    const hash = crypto.createHash('md5');
    for (let i = 0; i < 64; i++) hash.update(chunk);
    const bigSigned = await signer.signUpload({ key: big, size, md5Hex: hash.digest('hex'), expiresInSeconds: 600 }, new Date());
    const running = server;
    await new Promise<void>((resolve) => {
      const req = http.request(bigSigned.url, { method: 'PUT', headers: { ...bigSigned.headers, 'content-length': String(size) } });
      req.on('error', () => resolve());
      let sent = 0;
      const next = () => {
        while (sent < 32) {
          sent++;
          if (!req.write(chunk)) return void req.once('drain', next);
        }
        // Half sent: give the server a moment to write it, then kill it.
        setTimeout(() => void running.kill().then(() => resolve()), 300);
      };
      next();
    });
    const dir = path.join(dataDir, 'blobs', project);
    const visible = fs.readdirSync(dir).filter((f) => !f.startsWith('.'));
    assert.deepEqual(visible.sort(), ['scan.e57'], 'no half-file under the object name');
    const leftovers = fs.readdirSync(dir).filter((f) => f.endsWith('.part'));
    assert.equal(leftovers.length, 1, 'the killed upload left its (hidden) temporary file');

    // Age the leftovers past the idle time: the restarted server sweeps them at start.
    const old = new Date(Date.now() - 3600_000);
    for (const f of leftovers) fs.utimesSync(path.join(dir, f), old, old);
    server = await startServer(env, { dataDir });
    const stat = await fetch(await signer.signDownload({ key: big, contentType: 'application/octet-stream', expiresInSeconds: 600 }, new Date()), { method: 'HEAD' });
    assert.equal(stat.status, 404, 'the interrupted object does not exist');
    for (let i = 0; i < 50 && fs.readdirSync(dir).some((f) => f.endsWith('.part')); i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.part')), [], 'temporary files swept');
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
