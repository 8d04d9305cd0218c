// @engine-independent: no database.
// The file token store: one profile per server and user, mode 0600, atomic writes, a lock
// that excludes, and a lock left by a dead process taken over once stale.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileTokenStore, profilePath } from '../src/node/index.ts';

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-store-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const tokens = { accessToken: 'a', refreshToken: 'r', expiresAt: 1, userId: 'urn:svc:user:1', server: 'http://h' };

test('file store: one file per server and user, 0600 in a 0700 folder, read back as written', async () => {
  const a = profilePath('http://127.0.0.1:8080', 'urn:svc:user:1', dir);
  assert.notEqual(a, profilePath('http://127.0.0.1:8081', 'urn:svc:user:1', dir));
  assert.notEqual(a, profilePath('http://127.0.0.1:8080', 'urn:svc:user:2', dir));
  const store = FileTokenStore.forProfile('http://127.0.0.1:8080', 'urn:svc:user:1', { dir });
  assert.equal(await store.read(), null);
  await store.write(tokens);
  assert.equal(fs.statSync(store.file).mode & 0o777, 0o600);
  assert.equal(fs.statSync(path.dirname(store.file)).mode & 0o777, 0o700);
  assert.deepEqual(await store.read(), tokens);
  assert.deepEqual(fs.readdirSync(path.dirname(store.file)), [path.basename(store.file)], 'no temporary file left');
  await store.clear();
  assert.equal(await store.read(), null);
});

test('file store: the lock excludes (no two holders at once)', async () => {
  const store = new FileTokenStore(path.join(dir, 'lock.json'));
  let inside = 0;
  let most = 0;
  await Promise.all(Array.from({ length: 8 }, () => store.withLock(async () => {
    most = Math.max(most, ++inside);
    await new Promise((r) => setTimeout(r, 20));
    inside--;
  })));
  assert.equal(most, 1);
});

test('file store: a lock left by a killed process is taken over once stale', async () => {
  const store = new FileTokenStore(path.join(dir, 'stale.json'), { staleMs: 2000 });
  const lock = `${store.file}.lock`;
  fs.mkdirSync(lock);
  const old = new Date(Date.now() - 60_000);
  fs.utimesSync(lock, old, old);
  assert.equal(await store.withLock(async () => 'got it'), 'got it');
  assert.equal(fs.existsSync(lock), false);
});
