// The console's tag editing, streamed scan preview and job addresses (issue 18) in headless
// Chromium against one started server: a tag list's metadata definitions added, renamed and
// removed (with the clean-removed option), a tag's metadata values set, a tag's box edited
// (axis-aligned and oriented) and redrawn (the scene's instance matrices read back), a bad
// box refused; a 2,000,000-point LAS scan previewed by byte ranges (far fewer bytes read
// than the file holds, points drawn as they arrive, cancel keeps what arrived); a copy job
// and a connect job found again from their address after a reload and from another
// browser, and another user refused the copy. A Viewer sees the new actions disabled with
// their reason. axe-core on each screen; screenshots in .tmp/artifacts/console/.
// @engine-independent (the console is a client of the API; the API's data path is tested elsewhere)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import type { OAuthServer } from '../support/oauth-client.ts';
import { apiAs, assertNoSeriousAxeViolations, consoleWorld, lasFileOf, screenshot, signInThroughConsole } from '../support/console.ts';

const MIA = { email: 'mia@console-tags.test', password: 'mia-password-1' };
const VIC = { email: 'vic@console-tags.test', password: 'vic-password-1' };

let server: OAuthServer;
const world = consoleWorld();
const { newPage, showPages } = world;
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

/** What the first test made, for the later ones. */
const made = { accountId: '', projectId: '', hallId: '', tagListPath: '', copyAddress: '' };
const api2 = () => `/api/2/accounts/${made.accountId}/projects/${made.projectId}`;

before(async () => {
  server = await world.start();
  await server.seed({
    users: [MIA, VIC].map((u) => ({ ...u, firstName: u.email.slice(0, 3), lastName: 'Console' })),
    accounts: [{ name: 'Tags Inc', owner: MIA.email, projectManagers: [MIA.email], members: [VIC.email], subscriptions: [{ name: 'Main', isActive: true }] }],
  });
  const [account] = await apiAs(server, MIA.email, 'GET', '/api/2/accounts');
  made.accountId = uuidOf(account.id);
  const project = await apiAs(server, MIA.email, 'POST', `/api/2/accounts/${made.accountId}/projects`, { name: 'Plant east', subscriptionId: account.subscriptions[0].id });
  made.projectId = uuidOf(project.id);
  const hall = await apiAs(server, MIA.email, 'POST', `${api2()}/workzones`, { name: 'Hall B', parentWorkzoneId: project.rootWorkzoneId });
  made.hallId = uuidOf(hall.id);
  const list = await apiAs(server, MIA.email, 'POST', `${api2()}/tag-lists`, { workzoneId: hall.id, tagListType: '3d', name: 'Pumps' });
  await apiAs(server, MIA.email, 'POST', `${api2()}/tag-lists/${uuidOf(list.id)}/tags/bulk`, {
    create: [
      { data: { id: 'P-1', name: 'Booster pump', class: 'pump', boundingBox: [0, 0, 0, 2, 1, 1.5] } },
      { data: { id: 'V-1', name: 'Gate valve', class: 'valve', orientedBoundingBox: [5, 0, 0.5, 0, 0, 0, 1, 3, 0.6, 0.6] } },
    ],
  });
  made.tagListPath = `/console/a/${made.accountId}/p/${made.projectId}/t/${uuidOf(list.id)}`;
});
after(() => world.stop());

/** The drawn instance of tag `id`: its matrix (column-major, 16 numbers) as the scene holds it. */
const instanceOf = (page: Page, id: string) =>
  page.evaluate((tagId) => {
    const h = (globalThis as any).__scanbaseBoxScene;
    const tagIndex = h.tags.findIndex((t: { data: { id: string } }) => t.data.id === tagId);
    const instance = [...h.layer.instanceTag].indexOf(tagIndex);
    return [...h.layer.mesh.instanceMatrix.array.slice(instance * 16, instance * 16 + 16)] as number[];
  }, id);

const tagsNow = async () => {
  const lists = await apiAs(server, MIA.email, 'GET', `${api2()}/tag-lists`);
  const tags = await apiAs(server, MIA.email, 'GET', `${api2()}/tag-lists/${uuidOf(lists[0].id)}/tags`);
  return { list: lists[0], byId: Object.fromEntries(tags.map((t: { data: { id: string } }) => [t.data.id, t.data])) as Record<string, any> };
};

/** The page is no wider than the window (the side column's forms wrap instead). */
async function assertNoSidewaysOverflow(page: Page, where: string): Promise<void> {
  const overflow = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > width + 1).map((e) => e.outerHTML.slice(0, 80));
    return { by: document.documentElement.scrollWidth - width, wide: wide.slice(0, 5) };
  });
  assert.ok(overflow.by <= 1, `sideways overflow with ${where}: ${JSON.stringify(overflow)}`);
}

const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-4, `${what}: ${a} ≠ ${b}`);

test('the console: metadata definitions added, renamed and removed with their values cleaned; a tag\'s metadata values set; a tag\'s box edited (axis-aligned and oriented) and redrawn; a bad box refused; it fits 1280 px and a phone', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('tags');
  });
  const page = await newPage();
  await page.goto(`${server.url}${made.tagListPath}`);
  await signInThroughConsole(page, MIA, new RegExp(`${made.tagListPath}$`));
  await page.locator('canvas.scene[data-drawn="2"]').waitFor({ timeout: 30_000 });

  // Definitions: three added, one renamed, saved through the list's update.
  const defs = page.getByRole('form', { name: 'Metadata definitions' });
  await defs.getByText('No metadata definition yet.').waitFor();
  for (const name of ['Floor', 'Owner', 'Serial']) {
    await defs.getByLabel("New definition's name").fill(name);
    await defs.getByRole('button', { name: 'Add definition' }).click();
  }
  await defs.getByLabel('Name of definition 3').fill('Serial number');
  await defs.getByRole('button', { name: 'Save definitions' }).click();
  await page.waitForFunction(() => document.querySelector('#why-save-definitions')?.textContent === 'No change to save');
  let now = await tagsNow();
  assert.deepEqual(now.list.metadataDefinition.map((d: { name: string }) => d.name), ['Floor', 'Owner', 'Serial number']);
  const idOf = (name: string) => now.list.metadataDefinition.find((d: { name: string }) => d.name === name).id as string;

  // A tag's values: picked from the table, its Floor and Owner set (API 2's bulk update carries them).
  await page.getByRole('button', { name: 'P-1', exact: true }).click();
  const edit = page.getByRole('form', { name: 'Edit the tag' });
  await edit.getByLabel('Floor').fill('2');
  await edit.getByLabel('Owner').fill('Ann');
  await assertNoSeriousAxeViolations(page, 'tag list with metadata definitions and the tag editor');
  await assertNoSidewaysOverflow(page, 'the tag editor at 1280 px');
  await edit.getByRole('button', { name: 'Save tag' }).click();
  await page.locator('[data-testid=picked-tag] dd').filter({ hasText: 'Ann' }).waitFor();
  now = await tagsNow();
  assert.deepEqual(now.byId['P-1'].metadata, [{ id: idOf('Floor'), value: '2' }, { id: idOf('Owner'), value: 'Ann' }]);
  assert.equal(now.byId['P-1'].name, 'Booster pump', 'the fields not edited are sent back as read');

  // Its axis-aligned box made 4 m long: saved, and the redrawn instance is 4 m along X.
  assert.equal((await instanceOf(page, 'P-1'))[0], 2);
  await edit.getByLabel('Max X', { exact: true }).fill('4');
  await edit.getByRole('button', { name: 'Save tag' }).click();
  await page.locator('[data-testid=picked-tag] .picked-bbox').filter({ hasText: '0, 0, 0, 4, 1, 1.5' }).waitFor();
  now = await tagsNow();
  assert.deepEqual(now.byId['P-1'].boundingBox, [0, 0, 0, 4, 1, 1.5]);
  assert.equal(now.byId['P-1'].metadata.length, 2, 'the values stay');
  await page.waitForFunction(() => (globalThis as any).__scanbaseBoxScene.tags.find((t: any) => t.data.id === 'P-1').data.boundingBox[3] === 4);
  const p1 = await instanceOf(page, 'P-1');
  near(p1[0]!, 4, 'P-1 size X');
  near(p1[5]!, 1, 'P-1 size Y');

  // The oriented box turned to 30° about Z and made 2 m long: the quaternion sent, the instance turned.
  await page.getByRole('button', { name: 'V-1', exact: true }).click();
  const editV = page.getByRole('form', { name: 'Edit the tag' });
  await editV.getByLabel('Oriented').waitFor();
  assert.equal(await editV.getByLabel('Oriented').isChecked(), true, 'an oriented tag opens as an oriented box');
  assert.equal(await editV.getByLabel('Rotation about Z (degrees)').inputValue(), '0');
  await assertNoSidewaysOverflow(page, 'an oriented box in the tag editor at 1280 px');
  // A size of 0 is refused in the page, with the reason.
  await editV.getByLabel('Size X').fill('0');
  await editV.getByRole('button', { name: 'Save tag' }).click();
  await page.getByRole('alert').filter({ hasText: 'The sizes must be greater than 0.' }).waitFor();
  await editV.getByLabel('Size X').fill('2');
  await editV.getByLabel('Rotation about Z (degrees)').fill('30');
  await editV.getByRole('button', { name: 'Save tag' }).click();
  await page.waitForFunction(() => {
    const o = (globalThis as any).__scanbaseBoxScene.tags.find((t: any) => t.data.id === 'V-1').data.orientedBoundingBox;
    return Math.abs(o[7] - 2) < 1e-9;
  });
  now = await tagsNow();
  const obb = now.byId['V-1'].orientedBoundingBox as number[];
  const half = Math.PI / 12;
  assert.deepEqual(obb.slice(0, 3), [5, 0, 0.5]);
  near(obb[5]!, Math.sin(half), 'quaternion z');
  near(obb[6]!, Math.cos(half), 'quaternion w');
  assert.deepEqual(obb.slice(7), [2, 0.6, 0.6]);
  const v1 = await instanceOf(page, 'V-1');
  // Column 0 of the matrix is the box's X axis times its size: 2 × (cos 30°, sin 30°, 0).
  near(v1[0]!, 2 * Math.cos(Math.PI / 6), 'V-1 X axis x');
  near(v1[1]!, 2 * Math.sin(Math.PI / 6), 'V-1 X axis y');
  await screenshot(page, 'tag-box-edited', { selector: 'canvas.scene' });

  // Owner removed with its values cleaned from every tag; Floor renamed in the same save.
  await defs.getByRole('button', { name: 'Remove the definition Owner' }).click();
  await defs.getByText(/Removing Owner\. Checked, every tag of the list loses its values/).waitFor();
  await defs.getByLabel('Name of definition 1').fill('Level');
  await defs.getByLabel("Also delete the removed definitions' values from every tag").check();
  await assertNoSeriousAxeViolations(page, 'metadata definitions with one removed');
  await defs.getByRole('button', { name: 'Save definitions' }).click();
  await page.waitForFunction(() => document.querySelector('#why-save-definitions')?.textContent === 'No change to save');
  now = await tagsNow();
  assert.deepEqual(now.list.metadataDefinition.map((d: { name: string }) => d.name), ['Level', 'Serial number']);
  assert.deepEqual(now.byId['P-1'].metadata, [{ id: now.list.metadataDefinition[0].id, value: '2' }], 'Owner\'s value is gone from the tag');
  await screenshot(page, 'tag-metadata');
  // At phone width the editor and the definitions fit without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await assertNoSidewaysOverflow(page, 'the tag editor and the definitions at 390 px');
  await screenshot(page, 'tag-editor-phone');
  done = true;
});

test('the console: a 2,000,000-point LAS scan is previewed by byte ranges, reading a tenth of it, drawn as windows arrive; Cancel keeps what arrived', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('tags-stream');
  });
  // 2,000,000 points on a 200 m × 100 m slope (40 MB), uploaded through the API's signed-URL flow.
  const COUNT = 2_000_000;
  const las = lasFileOf(COUNT, (i) => [(i % 2000) / 10, Math.floor(i / 2000) / 10, (i % 2000) / 100]);
  const item = { name: 'big-station', extension: 'las', size: las.length, md5: crypto.createHash('md5').update(las).digest('hex') };
  const zone = `${api2()}/workzones/${made.hallId}/bulk-files`;
  const signed = await apiAs(server, MIA.email, 'POST', zone, [item]);
  const put = await fetch(signed.files[0].url, {
    method: 'PUT', body: new Uint8Array(las),
    headers: { 'content-md5': crypto.createHash('md5').update(las).digest('base64'), 'cache-control': 'max-age=2592000', 'x-ms-blob-type': 'BlockBlob', 'content-type': 'application/octet-stream' },
  });
  assert.ok(put.ok, `PUT ${put.status}`);
  const blobName = signed.files[0].blobName as string;
  await apiAs(server, MIA.email, 'PUT', zone, [{ ...item, blobName }]);

  const page = await newPage();
  const reads: { status: number; bytes: number }[] = [];
  page.on('response', (r) => {
    if (r.url().includes(blobName)) reads.push({ status: r.status(), bytes: Number(r.headers()['content-length'] ?? 0) });
  });
  await page.goto(`${server.url}${made.tagListPath}`);
  await signInThroughConsole(page, MIA, new RegExp(`${made.tagListPath}$`));
  await page.locator('canvas.scene[data-drawn="2"]').waitFor({ timeout: 30_000 });
  const seen: number[] = [];
  await page.exposeFunction('sawPoints', (n: number) => seen.push(n));
  await page.evaluate(() => {
    const c = document.querySelector('canvas.scene')!;
    new MutationObserver(() => (window as any).sawPoints(Number(c.getAttribute('data-points')))).observe(c, { attributes: true, attributeFilter: ['data-points'] });
  });
  await page.getByLabel("Show a scan's points").selectOption({ label: 'big-station.las' });
  await page.getByTestId('scan-status').filter({ hasText: /points shown of 2,000,000/ }).waitFor({ timeout: 60_000 });
  const reading = await page.evaluate(() => (globalThis as any).__scanbasePreview);
  assert.equal(reading.streamed, true);
  assert.equal(reading.points, 128 * Math.floor(200_000 / 128));
  assert.ok(reads.length > 100 && reads.every((r) => r.status === 206), `every read is a range: ${JSON.stringify(reads.slice(0, 3))}… (${reads.length})`);
  const fetched = reads.reduce((n, r) => n + r.bytes, 0);
  assert.equal(fetched, reading.bytes);
  assert.ok(fetched < las.length / 9, `read ${fetched} bytes of ${las.length}`);
  assert.ok(new Set(seen).size > 10, `points drawn progressively: ${seen.slice(0, 20).join(', ')}…`);
  assert.equal(seen.at(-1), reading.points);
  await screenshot(page, 'scan-streamed', { selector: 'canvas.scene' });

  // Cancel: the windows after the first few are held back; Cancel stops the reading and keeps the points that arrived.
  let passed = 0;
  await page.route((u) => u.href.includes(blobName), async (route) => {
    if (passed++ >= 9) await new Promise((r) => setTimeout(r, 5000));
    await route.continue().catch(() => undefined);
  });
  await page.getByLabel("Show a scan's points").selectOption({ label: 'Choose a scan…' });
  await page.getByLabel("Show a scan's points").selectOption({ label: 'big-station.las' });
  await page.getByRole('button', { name: 'Cancel preview' }).waitFor();
  await page.waitForFunction(() => (globalThis as any).__scanbasePreview.points > 0);
  await assertNoSeriousAxeViolations(page, 'scan preview in progress');
  await page.getByRole('button', { name: 'Cancel preview' }).click();
  await page.getByTestId('scan-status').filter({ hasText: /^Cancelled: [\d,]+ points shown/ }).waitFor();
  const cancelled = await page.evaluate(() => (globalThis as any).__scanbasePreview);
  assert.ok(cancelled.points > 0 && cancelled.points < reading.points && !cancelled.done, JSON.stringify(cancelled));
  assert.equal(await page.locator('canvas.scene').getAttribute('data-points'), String(cancelled.points));
  await page.unroute((u) => u.href.includes(blobName));
  done = true;
});

test('the console: a copy job and a connect job are found again from their address after a reload and in another browser; another user is refused the copy', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('tags-jobs');
  });
  const project = `/console/a/${made.accountId}/p/${made.projectId}`;
  const page = await newPage();
  await page.goto(`${server.url}${project}?zone=${made.hallId}&tab=copy`);
  await signInThroughConsole(page, MIA, /tab=copy$/);
  await page.getByLabel('Name of the copy').fill('Hall B archive');
  await page.getByRole('button', { name: 'Copy zone' }).click();
  await page.waitForURL(/tab=copy&job=/);
  made.copyAddress = new URL(page.url()).pathname + new URL(page.url()).search;
  // A reload: the console keeps its session and follows the copy in the address to its end.
  await page.reload();
  await signInThroughConsole(page, MIA, /job=/);
  await page.locator('.copy-state').filter({ hasText: 'done' }).waitFor({ timeout: 30_000 });
  await page.getByRole('link', { name: /^Open the copy / }).waitFor();
  await assertNoSeriousAxeViolations(page, 'copy followed from its address');

  // A connect export: its address opened in another browser (no remembered jobs there).
  await page.getByRole('tab', { name: 'Connect' }).click();
  await page.getByRole('button', { name: 'Start an export' }).click();
  await page.waitForURL(/tab=connect&job=/);
  const slug = new URL(page.url()).searchParams.get('job')!;
  const other = await newPage();
  await other.goto(page.url());
  await signInThroughConsole(other, MIA, /job=/);
  const job = other.getByRole('listitem', { name: `Export job ${slug}` });
  await job.locator('.job-state').filter({ hasText: 'ready' }).waitFor();
  assert.equal(await other.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('scanbase.connect-jobs')).length), 0, 'nothing remembered in that browser');
  await assertNoSeriousAxeViolations(other, 'connect job opened from its address');
  await screenshot(other, 'connect-job-address');
  done = true;
});

test('the console: a Viewer sees the metadata definitions and the tag editor disabled with their reason, and another user\'s copy is not shown', async (t) => {
  assert.ok(made.copyAddress, 'needs the copy of the previous test');
  let done = false;
  t.after(async () => {
    if (!done) await showPages('tags-viewer');
  });
  const roles = await apiAs(server, MIA.email, 'GET', `/api/2/accounts/${made.accountId}/roles`);
  const viewer = roles.find((r: { name: string }) => r.name === 'Viewer');
  await apiAs(server, MIA.email, 'POST', `${api2()}/members`, { members: { users: [{ user: VIC.email, role: viewer.id }] } });
  const page = await newPage();
  await page.goto(`${server.url}${made.tagListPath}`);
  await signInThroughConsole(page, VIC, new RegExp(`${made.tagListPath}$`));
  const why = (name: string) => page.locator(`#why-${name.replace(/\W+/g, '-').toLowerCase()}`).filter({ hasText: 'Needs workzone:tags:write' });
  await why('Save definitions').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Save definitions' }).isDisabled(), true);
  assert.equal(await page.getByLabel("New definition's name").isDisabled(), true);
  assert.equal(await page.getByRole('button', { name: 'Remove the definition Level' }).isDisabled(), true);
  await page.getByRole('button', { name: 'P-1', exact: true }).click();
  const edit = page.getByRole('form', { name: 'Edit the tag' });
  await why('Save tag').waitFor();
  assert.equal(await edit.getByRole('button', { name: 'Save tag' }).isDisabled(), true);
  assert.equal(await edit.getByLabel('Level').isDisabled(), true);
  assert.equal(await edit.getByLabel('Max X', { exact: true }).isDisabled(), true);
  await assertNoSeriousAxeViolations(page, 'tag editor as a Viewer');
  // The copy Mia asked for: the service shows it to its requester only.
  await page.goto(`${server.url}${made.copyAddress}`);
  await signInThroughConsole(page, VIC, /job=/);
  await page.getByRole('alert').filter({ hasText: 'job-not-found' }).waitFor();
  done = true;
});
