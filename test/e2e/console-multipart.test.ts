// The console's large-file upload (docs/console.md "Uploads"; docs/files.md "Multipart
// uploads") in headless Chromium against a started service: a 300 MiB file chosen in the
// files tab goes in parts (checksums in a Web Worker, parts in parallel, progress with rate
// and ETA); the page is reloaded half way; the same file chosen again resumes, sending only
// the parts the service lacks, and completes; the file is registered with the file's MD5.
// The file is generated as a stream and deleted after.
// @engine-independent (the console is a client of the API; the API's data path is tested in test/http)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { OAuthServer } from '../support/oauth-client.ts';
import { apiAs, consoleWorld, signInThroughConsole } from '../support/console.ts';

const MiB = 1024 * 1024;
const SIZE = 300 * MiB + 777;
const NIA = { email: 'nia@console-multipart.test', password: 'nia-password-1' };

let server: OAuthServer;
let work: string;
const world = consoleWorld();
const { newPage, showPages } = world;
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

before(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'console-multipart-'));
  server = await world.start();
  await server.seed({
    users: [{ ...NIA, firstName: 'Nia', lastName: 'Console' }],
    accounts: [{ name: 'Big Files Ltd', owner: NIA.email, projectManagers: [NIA.email], subscriptions: [{ name: 'Main', isActive: true }] }],
  });
});
after(async () => {
  await world.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** `size` random bytes written in 4 MiB chunks (memory flat); answers their MD5. */
async function generate(file: string, size: number): Promise<string> {
  const md5 = crypto.createHash('md5');
  await pipeline(async function* () {
    for (let left = size; left > 0;) {
      const chunk = crypto.randomBytes(Math.min(4 * MiB, left));
      md5.update(chunk);
      left -= chunk.length;
      yield chunk;
    }
  }, fs.createWriteStream(file));
  return md5.digest('hex');
}

test('a 300 MiB scan from the console: in parts, the page reloaded half way, chosen again it resumes with the parts already sent, and completes', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('multipart');
  });
  const file = path.join(work, 'hall-scan.e57');
  const md5 = await generate(file, SIZE);

  const [account] = await apiAs(server, NIA.email, 'GET', '/api/2/accounts');
  const a = `/api/2/accounts/${uuidOf(account.id)}`;
  const project = await apiAs(server, NIA.email, 'POST', `${a}/projects`, { name: 'Big hall', subscriptionId: account.subscriptions[0].id });
  const p = `${a}/projects/${uuidOf(project.id)}`;
  const zone = uuidOf(project.rootWorkzoneId);
  const uploads = `${p}/workzones/${zone}/multipart-uploads`;

  const page = await newPage();
  await page.goto(`${server.url}/console/a/${uuidOf(account.id)}/p/${uuidOf(project.id)}?tab=files`);
  await signInThroughConsole(page, NIA, /tab=files$/);
  await page.getByRole('button', { name: 'Choose files' }).waitFor();

  await page.setInputFiles('#file-input', file);
  // The upload this browser remembers, and the parts the service holds: reloaded once it holds a third of them.
  const upload = await page.waitForFunction(() => {
    const k = Object.keys(localStorage).find((x) => x.startsWith('scanbase.multipart|'));
    return k ? JSON.parse(localStorage.getItem(k)!) : null;
  }, undefined, { timeout: 60_000 }).then((h) => h.jsonValue() as Promise<{ id: string; partCount: number }>);
  assert.ok(upload.partCount >= 10, `${upload.partCount} parts`);
  // Rate and ETA are shown while it goes.
  await page.locator('.uploads .rate').filter({ hasText: /\/s(, .* left)?$/ }).first().waitFor({ timeout: 60_000 });
  let held = 0;
  for (const deadline = Date.now() + 120_000; held < upload.partCount / 3 && Date.now() < deadline;) {
    held = (await apiAs(server, NIA.email, 'GET', `${uploads}/${upload.id}/parts`)).parts.length;
    if (held < upload.partCount / 3) await new Promise((r) => setTimeout(r, 100));
  }
  await page.reload();
  // What the page had in flight lands or fails; then what the service holds is what the resume finds.
  await new Promise((r) => setTimeout(r, 1000));
  const heldAtReload = (await apiAs(server, NIA.email, 'GET', `${uploads}/${upload.id}/parts`)).parts.length;
  assert.ok(heldAtReload >= upload.partCount / 3 && heldAtReload < upload.partCount, `${heldAtReload} of ${upload.partCount} parts held at the reload`);

  // The console keeps its tokens in the page: signed in again (the authorize pages remember the browser).
  await signInThroughConsole(page, NIA, /tab=files$/);
  await page.getByRole('button', { name: 'Choose files' }).waitFor();
  // The completion the console sends: on local disk the store computes the whole MD5 from the
  // parts it verified, so the page hashes each byte once and sends only the composite.
  let completion: Record<string, unknown> | null = null;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith(`/${upload.id}/complete`)) completion = r.postDataJSON() as Record<string, unknown>;
  });
  await page.setInputFiles('#file-input', file);
  const row = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: 'hall-scan.e57' });
  await row.filter({ hasText: /resumed: \d+ parts were already there/ }).waitFor({ timeout: 60_000 });
  const resumedWith = Number(/resumed: (\d+) parts/.exec((await row.textContent()) ?? '')![1]);
  assert.ok(resumedWith >= heldAtReload, `resumed with ${resumedWith} parts, ${heldAtReload} were held`);
  await row.locator('.state').filter({ hasText: 'done' }).waitFor({ timeout: 180_000 });

  const files = await apiAs(server, NIA.email, 'GET', `${p}/files`);
  const registered = files.filter((f: { name: string }) => f.name === 'hall-scan');
  assert.equal(registered.length, 1, JSON.stringify(files));
  assert.deepEqual([registered[0].size, registered[0].md5], [SIZE, md5]);
  assert.ok(completion, 'the completion was sent');
  assert.deepEqual(Object.keys(completion).sort(), ['partsMd5'], 'no whole MD5 hashed in the page: the local store computes it');
  assert.equal(await page.evaluate(() => Object.keys(localStorage).filter((x) => x.startsWith('scanbase.multipart|')).length), 0, 'the browser forgot the finished upload');
  // The same upload id was completed (resumed, not started again).
  const again = await fetch(`${server.url}${uploads}/${upload.id}/parts`, {
    headers: { authorization: `Bearer ${(await server.operator<{ access_token: string }>('POST', '/tokens', { email: NIA.email })).access_token}` },
  });
  assert.equal(again.status, 409, 'the upload started before the reload is the one completed');
  fs.rmSync(file);
  done = true;
});
