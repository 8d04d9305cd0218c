// @engine-independent: no database; the multipart extension is served by a test server over the local-disk store.
// `scanbase upload` of a large file killed with SIGKILL mid-upload, then the same command
// again: it re-sends only the parts the service lacks (none it holds; at most the ones in
// flight at the kill), every byte verified (whole MD5 and composite at completion, the
// download's MD5); `scanbase download` of it in parallel ranges. Against the test server
// that implements docs/files.md "Multipart uploads" over the real store adapter
// (packages/sdk/test/support/multipart-server.ts), until the service's routes exist.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMultipartServer, type MultipartServer } from '../../sdk/test/support/multipart-server.ts';
import { scanbase } from './support/run.ts';

const MiB = 1024 * 1024;
let server: MultipartServer;
let configDir: string;
let work: string;

before(async () => {
  server = await startMultipartServer({ partSize: MiB });
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-mp-config-'));
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-mp-work-'));
  const pair = { access_token: 'test-access', refresh_token: 'test-refresh', expires_in: 3600, token_type: 'Bearer', user_id: 'urn:svc:user:u' };
  const login = await scanbase(['login', '--with-token', '--base-url', server.url], { configDir, stdin: JSON.stringify(pair) });
  assert.equal(login.code, 0, login.stderr);
});
after(async () => {
  await server?.stop();
  for (const d of [configDir, work]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

const md5 = (f: string) => crypto.createHash('md5').update(fs.readFileSync(f)).digest('hex');

test('resume: `scanbase upload` of a 48-part file killed with SIGKILL mid-upload; run again, it sends only the parts the service lacks; every byte verified', async () => {
  const file = path.join(work, 'site.e57');
  fs.writeFileSync(file, crypto.randomBytes(48 * MiB - 1000));
  const scope = ['--account', 'urn:svc:account:0a0e6a1e-9d1c-4b4f-8f0e-2a8c3f1d5e70', '--project', 'urn:svc:project:1f0e6a1e-9d1c-4b4f-8f0e-2a8c3f1d5e77'];
  const args = ['upload', ...scope, '--zone', 'urn:svc:workzone:z', '--parallel', '4', '--multipart-threshold', '8', file];

  let timer: NodeJS.Timeout | undefined;
  const killed = await scanbase(args, {
    configDir,
    onSpawn: (child) => {
      timer = setInterval(() => server.partsReceived.length >= 12 && child.kill('SIGKILL'), 5);
    },
  });
  clearInterval(timer);
  assert.equal(killed.signal, 'SIGKILL', `the upload finished before it was killed: ${killed.stdout}${killed.stderr}`);
  await new Promise((r) => setTimeout(r, 200)); // what the killed client had sent lands (or fails)
  await server.idle();
  const startedBefore = [...server.partsStarted];
  const heldAtKill = [...server.partsReceived];
  assert.ok(heldAtKill.length >= 12 && heldAtKill.length < 48, `${heldAtKill.length} parts held at the kill`);
  assert.equal(new Set(heldAtKill).size, heldAtKill.length);
  const inFlightAtKill = startedBefore.filter((n) => !heldAtKill.includes(n));

  const again = await scanbase([...args, '--json'], { configDir });
  assert.equal(again.code, 0, again.stderr);
  const [out] = JSON.parse(again.stdout) as { id: string; md5: string; blobName: string; status: string }[];
  const sentAgain = server.partsReceived.slice(heldAtKill.length);
  assert.deepEqual(sentAgain.filter((n) => heldAtKill.includes(n)), [], 'no part the service held was sent again');
  assert.deepEqual([...heldAtKill, ...sentAgain].sort((a, b) => a - b), Array.from({ length: 48 }, (_, i) => i + 1), 'every part exactly once');
  const resent = sentAgain.filter((n) => startedBefore.includes(n));
  assert.ok(resent.every((n) => inFlightAtKill.includes(n)) && resent.length <= 4, `re-sent ${resent.join(',')}: only parts in flight at the kill (at most --parallel)`);

  assert.equal(out!.md5, md5(file));
  const registered = server.files.get(out!.id)!;
  assert.equal(registered.md5, md5(file), 'the service verified the whole MD5 at completion');

  const dest = path.join(work, 'copy.e57');
  const down = await scanbase(['download', ...scope, out!.id, '--out', dest, '--multipart-threshold', '8', '--json'], { configDir });
  assert.equal(down.code, 0, down.stderr);
  assert.equal(JSON.parse(down.stdout).md5Checked, true);
  assert.ok(JSON.parse(down.stdout).rangesFetched > 1, 'fetched in ranges');
  assert.equal(md5(dest), md5(file));
});
