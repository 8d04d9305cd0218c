// The web console's later screens (issue 18) in headless Chromium against one started
// server: a project cover uploaded and shown, a group added as a member with a role and an
// expiry, a connect import (a scan uploaded into the job, remembered after a reload), that
// scan moved and turned, a crop created, renamed and deleted, a work zone copied into a new project with the job followed until done (and the copy
// opened), a tag list created and renamed, tags created in the console (axis-aligned and
// oriented) and drawn in 3D, a user removed from the account, a custom role edited, the
// subscription's usage; a
// Viewer sees these actions disabled with their reason.
// axe-core finds no serious or critical violation on these screens; screenshots are kept
// in .tmp/artifacts/console/.
// @engine-independent (the console is a client of the API; the API's data path is tested elsewhere)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { OAuthServer } from '../support/oauth-client.ts';
import { apiAs, assertNoSeriousAxeViolations, consoleWorld, lasFile, screenshot, signInThroughConsole, paintedPixels } from '../support/console.ts';

const MIA = { email: 'mia@console-more.test', password: 'mia-password-1' };
const VIC = { email: 'vic@console-more.test', password: 'vic-password-1' };
/** A user of the account that the console removes from it. */
const ZED = { email: 'zed@console-more.test', password: 'zed-password-1' };

/** A 2 × 2 PNG (red, green / blue, white): a real image, as the cover check wants. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwPCfgYGBgQHEBgAb8AL+xKdIDwAAAABJRU5ErkJggg==',
  'base64',
);

let server: OAuthServer;
const world = consoleWorld();
const { newPage, showPages } = world;
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

/** What the first test made, for the Viewer's test. */
const made = { projectPath: '', tagListPath: '', accountId: '', projectId: '', hallId: '' };

before(async () => {
  server = await world.start();
  await server.seed({
    users: [MIA, VIC, ZED].map((u) => ({ ...u, firstName: u.email.slice(0, 3), lastName: 'Console' })),
    accounts: [
      { name: 'More Inc', owner: MIA.email, projectManagers: [MIA.email], members: [VIC.email, ZED.email], subscriptions: [{ name: 'Main', isActive: true }] },
    ],
  });
});
after(() => world.stop());


test('the console: a cover uploaded and shown, a group added as a member with an expiry, a zone copied with its job followed to done, a tag list created and renamed, tags created and drawn in 3D', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('more');
  });
  // The world through the API: a project with a zone, and a group of the account.
  const accounts = await apiAs(server, MIA.email, 'GET', '/api/2/accounts');
  const account = accounts[0];
  made.accountId = uuidOf(account.id);
  const a = `/api/2/accounts/${made.accountId}`;
  const project = await apiAs(server, MIA.email, 'POST', `${a}/projects`, { name: 'Plant west', subscriptionId: account.subscriptions[0].id });
  made.projectId = uuidOf(project.id);
  const p = `${a}/projects/${made.projectId}`;
  const hall = await apiAs(server, MIA.email, 'POST', `${p}/workzones`, { name: 'Hall A', parentWorkzoneId: project.rootWorkzoneId });
  await apiAs(server, MIA.email, 'POST', `${a}/groups`, { name: 'Night shift' });
  made.projectPath = `/console/a/${made.accountId}/p/${made.projectId}`;
  made.hallId = uuidOf(hall.id);

  const page = await newPage();
  await page.goto(`${server.url}${made.projectPath}?zone=${uuidOf(hall.id)}&tab=files`);
  await signInThroughConsole(page, MIA, /tab=files$/);
  await page.getByRole('heading', { name: 'Hall A', level: 2 }).waitFor();

  // The cover (in the project's details): chosen as a file, sent through the cover flow, then shown from its signed URL.
  await page.getByRole('button', { name: 'Project details' }).click();
  await page.getByText('No cover yet.').waitFor();
  await page.setInputFiles('#cover-file', { name: 'plant.png', mimeType: 'image/png', buffer: PNG });
  const cover = page.getByRole('img', { name: 'Cover of Plant west' });
  await cover.waitFor({ timeout: 20_000 });
  await page.waitForFunction(() => (document.querySelector('img.cover-image') as HTMLImageElement | null)?.naturalWidth === 2);
  const { coverBlobName } = await apiAs(server, MIA.email, 'GET', p);
  assert.ok(coverBlobName, 'the project has its cover');
  assert.ok(((await cover.getAttribute('src')) ?? '').includes(coverBlobName), 'the image is the cover\'s signed URL');
  // A file that is no PNG or JPEG is refused in the page, with the reason.
  await page.setInputFiles('#cover-file', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await page.getByRole('alert').filter({ hasText: 'A cover is a PNG or JPEG image' }).waitFor();
  await assertNoSeriousAxeViolations(page, 'project with its cover');
  await screenshot(page, 'project-cover');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  // A group as a member of Hall A, with a role and an expiry.
  await page.getByRole('tab', { name: 'Members' }).click();
  await page.getByLabel('Group', { exact: true }).check();
  await page.getByRole('combobox', { name: 'Group' }).selectOption({ label: 'Night shift' });
  await page.getByLabel('Role').selectOption({ label: 'Viewer' });
  await page.getByLabel('Access until (optional)').fill('2031-01-31');
  await page.getByRole('button', { name: 'Add member' }).click();
  const groupRow = page.getByRole('row').filter({ hasText: 'Night shift' });
  await groupRow.waitFor();
  assert.match((await groupRow.textContent()) ?? '', /Viewer.*2031-01-31/);
  const access = await apiAs(server, MIA.email, 'GET', `${p}/members/access`);
  const entry = access.find((m: { member: { type: string; name?: string } }) => m.member.type === 'group' && m.member.name === 'Night shift');
  assert.ok(entry, JSON.stringify(access));
  assert.deepEqual(entry.workzoneIds.map(uuidOf), [uuidOf(hall.id)]);
  await assertNoSeriousAxeViolations(page, 'members with a group');

  // A connect import: started, a scan uploaded into the job, the job received; the tab
  // opened again without the job's address still lists it (remembered in this browser: no
  // API lists jobs; test/e2e/console-tags.test.ts opens a job from its address).
  await page.getByRole('tab', { name: 'Connect' }).click();
  await page.getByRole('button', { name: 'Start an import' }).click();
  const importJob = page.getByRole('listitem', { name: /^Import job / });
  await importJob.locator('.job-state').filter({ hasText: 'waiting' }).waitFor();
  const slug = ((await importJob.getAttribute('aria-label')) ?? '').replace('Import job ', '');
  await page.setInputFiles(`[id="import-${slug}"]`, { name: 'import-01.las', mimeType: 'application/octet-stream', buffer: lasFile([[1, 2, 3], [4, 5, 6]]) });
  await importJob.locator('.job-state').filter({ hasText: 'received' }).waitFor({ timeout: 20_000 });
  await importJob.getByText('import-01.las').waitFor();
  await assertNoSeriousAxeViolations(page, 'connect import');
  assert.equal(new URL(page.url()).searchParams.get('job'), slug, 'the job is in the address');
  await page.goto(`${server.url}${made.projectPath}?zone=${made.hallId}&tab=connect`);
  await signInThroughConsole(page, MIA, /tab=connect$/);
  await page.getByRole('listitem', { name: `Import job ${slug}` }).locator('.job-state').filter({ hasText: 'received' }).waitFor();
  const zoneFiles = await apiAs(server, MIA.email, 'GET', `${p}/files`);
  assert.deepEqual(zoneFiles.map((f: { name: string; workzoneId: string }) => [f.name, uuidOf(f.workzoneId)]), [['import-01', uuidOf(hall.id)]]);

  // The imported scan moved and turned in space (bulk-transformation).
  await page.getByRole('tab', { name: 'Files' }).click();
  await page.getByRole('button', { name: 'Transform import-01.las' }).click();
  const transform = page.getByRole('form', { name: 'Transform import-01' });
  await transform.getByLabel('Move X').fill('12.5');
  await transform.getByLabel('Rotation about Z (degrees)').fill('90');
  await assertNoSeriousAxeViolations(page, 'file transformation');
  await transform.getByRole('button', { name: 'Save the transformation of import-01' }).click();
  await transform.waitFor({ state: 'detached' });
  const [moved] = await apiAs(server, MIA.email, 'GET', `${p}/files`);
  assert.deepEqual(moved.translation, { x: 12.5, y: 0, z: 0 });
  assert.ok(Math.abs(moved.rotation.z - Math.SQRT1_2) < 1e-9 && Math.abs(moved.rotation.w - Math.SQRT1_2) < 1e-9, JSON.stringify(moved.rotation));

  // Crops of the zone: one created on the scan, renamed, then deleted.
  await page.getByRole('tab', { name: 'Crops' }).click();
  await page.getByText('No crop in this zone yet.').waitFor();
  const cropForm = page.getByRole('form', { name: 'New crop' });
  await cropForm.getByLabel('Crop name').fill('Pump room');
  await cropForm.getByLabel('Scan').selectOption({ label: 'import-01.las' });
  await cropForm.getByLabel('Max X').fill('4');
  await cropForm.getByRole('button', { name: 'Create crop' }).click();
  const cropRow = page.getByRole('row').filter({ hasText: 'Pump room' });
  await cropRow.waitFor();
  assert.match((await cropRow.textContent()) ?? '', /import-01\.las.*0, 0, 0, 4, 1, 1/);
  await page.getByRole('button', { name: 'Rename Pump room' }).click();
  await page.getByLabel('New name of Pump room').fill('Pump room east');
  await page.getByRole('button', { name: 'Save the name of Pump room' }).click();
  await page.getByRole('cell', { name: 'Pump room east', exact: true }).waitFor();
  await assertNoSeriousAxeViolations(page, 'crops');
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Delete Pump room east' }).click();
  await page.getByText('No crop in this zone yet.').waitFor();

  // A copy of Hall A into a new project: the job is followed until done, then opened.
  await page.getByRole('tab', { name: 'Copy' }).click();
  await page.getByLabel('Name of the copy').fill('Hall A archive');
  await page.getByLabel('Copy to').selectOption({ label: 'A new project' });
  await page.getByRole('button', { name: 'Copy zone' }).click();
  const states: string[] = [];
  const state = page.locator('.copy-state');
  await state.waitFor();
  for (let i = 0; i < 120 && !['done', 'failed'].includes(states.at(-1) ?? ''); i++) {
    const now = (await state.textContent()) ?? '';
    if (states.at(-1) !== now) states.push(now);
    await page.waitForTimeout(250);
  }
  assert.equal(states.at(-1), 'done', `states seen: ${states.join(' → ')}`);
  await page.getByText('1 work zone and 1 file copied').waitFor();
  await assertNoSeriousAxeViolations(page, 'copy');
  await screenshot(page, 'zone-copy-done');
  await page.getByRole('link', { name: 'Open the copy Hall A archive' }).click();
  await page.getByRole('heading', { name: 'Hall A archive', level: 1 }).waitFor();
  await page.goBack();
  await page.getByRole('heading', { name: 'Plant west', level: 1 }).waitFor();

  // A tag list made in the console, then renamed there.
  await page.getByRole('tab', { name: 'Tag lists' }).click();
  await page.getByLabel('New tag list name').fill('Pumps');
  await page.getByRole('button', { name: 'Create tag list' }).click();
  await page.getByRole('link', { name: 'Pumps' }).waitFor();
  await page.getByRole('button', { name: 'Rename Pumps' }).click();
  await page.getByLabel('New name of Pumps').fill('Pumps and valves');
  await page.getByRole('button', { name: 'Save name' }).click();
  await page.getByRole('link', { name: 'Pumps and valves' }).waitFor();
  const lists = await apiAs(server, MIA.email, 'GET', `${p}/tag-lists`);
  assert.deepEqual(lists.map((l: { name: string }) => l.name), ['Pumps and valves']);

  // Tags created in the console: an axis-aligned box, then an oriented one; both drawn.
  await page.getByRole('link', { name: 'Pumps and valves' }).click();
  made.tagListPath = new URL(page.url()).pathname;
  await page.getByText('This list has no tag yet.').waitFor({ timeout: 30_000 });
  const form = page.getByRole('form', { name: 'New tag' });
  await form.getByLabel('Id').fill('P-1');
  await form.getByLabel('Name').fill('Booster pump');
  await form.getByLabel('Class').fill('pump');
  for (const [label, value] of [['Min X', '500000'], ['Min Y', '5000000'], ['Min Z', '10'], ['Max X', '500002'], ['Max Y', '5000001'], ['Max Z', '11.5']]) {
    await form.getByLabel(label!, { exact: true }).fill(value!);
  }
  await form.getByRole('button', { name: 'Create tag' }).click();
  await page.locator('canvas.scene[data-drawn="1"]').waitFor({ timeout: 30_000 });
  await page.locator('[data-testid=picked-tag] .picked-name').filter({ hasText: 'Booster pump' }).waitFor();

  await form.getByLabel('Id').fill('V-1');
  await form.getByLabel('Name').fill('Gate valve');
  await form.getByLabel('Class').fill('valve');
  await form.getByLabel('Oriented').check();
  for (const [label, value] of [['Centre X', '500004'], ['Centre Y', '5000000.5'], ['Centre Z', '10.5'], ['Size X', '3'], ['Size Y', '0.6'], ['Size Z', '0.6'], ['Rotation about Z (degrees)', '90']]) {
    await form.getByLabel(label!, { exact: true }).fill(value!);
  }
  await form.getByRole('button', { name: 'Create tag' }).click();
  await page.locator('canvas.scene[data-drawn="2"]').waitFor({ timeout: 30_000 });
  await page.locator('[data-testid=picked-tag] .picked-name').filter({ hasText: 'Gate valve' }).waitFor();
  const valve = await page.evaluate(() => {
    const h = (globalThis as any).__scanbaseBoxScene;
    return h.tags.find((t: { data: { id: string } }) => t.data.id === 'V-1').data.orientedBoundingBox as number[];
  });
  assert.deepEqual(valve.slice(0, 3), [500004, 5000000.5, 10.5]);
  assert.deepEqual(valve.slice(3, 7).map((v) => +v.toFixed(6)), [0, 0, +Math.SQRT1_2.toFixed(6), +Math.SQRT1_2.toFixed(6)]);
  const painted = await paintedPixels(page);
  assert.ok(painted.boxes > painted.total * 0.005, `box pixels: ${JSON.stringify(painted)}`);
  await screenshot(page, 'tags-created-3d', { selector: 'canvas.scene' });
  // A box whose min exceeds its max is refused in the page, with the reason.
  await form.getByLabel('Axis-aligned').check();
  await form.getByLabel('Id').fill('BAD');
  await form.getByLabel('Min X', { exact: true }).fill('9');
  await form.getByLabel('Max X', { exact: true }).fill('1');
  await form.getByRole('button', { name: 'Create tag' }).click();
  await page.getByRole('alert').filter({ hasText: 'Min X must not exceed Max X' }).waitFor();
  await assertNoSeriousAxeViolations(page, 'tag list with the new-tag form');

  // The account: a user removed from it, a custom role edited.
  await apiAs(server, MIA.email, 'POST', `${a}/roles`, { name: 'Inspector', legacyPermissions: ['view3d'] });
  await page.goto(`${server.url}/console/a/${made.accountId}/users`);
  await signInThroughConsole(page, MIA, /\/users$/);
  await page.getByRole('cell', { name: ZED.email, exact: true }).waitFor();
  await page.getByRole('button', { name: `Remove ${ZED.email}` }).click();
  await page.getByRole('dialog', { name: 'Remove the user?' }).getByRole('button', { name: 'Remove from the account' }).click();
  await page.getByRole('cell', { name: VIC.email, exact: true }).waitFor();
  await page.getByRole('cell', { name: ZED.email, exact: true }).waitFor({ state: 'detached' });
  const users = await apiAs(server, MIA.email, 'GET', `${a}/users`);
  assert.equal(users.some((u: { email: string }) => u.email === ZED.email), false, 'zed left the account');
  // The account owner cannot be removed: the service's reason is shown.
  await page.getByRole('button', { name: `Remove ${MIA.email}` }).click();
  await page.getByRole('dialog', { name: 'Remove the user?' }).getByRole('button', { name: 'Remove from the account' }).click();
  await page.getByRole('alert').filter({ hasText: 'Error 403' }).waitFor();
  await assertNoSeriousAxeViolations(page, 'users with removal');

  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'More Inc' }).click();
  await page.getByRole('link', { name: 'Roles' }).click();
  await page.getByRole('button', { name: 'Edit role Inspector' }).click();
  await page.getByLabel('Role name').fill('Site inspector');
  await page.getByLabel('See tags').check();
  await page.getByRole('button', { name: 'Save role' }).click();
  const edited = page.getByRole('row').filter({ hasText: 'Site inspector' });
  await edited.waitFor();
  assert.match((await edited.textContent()) ?? '', /workzone:tags:read/);
  await assertNoSeriousAxeViolations(page, 'roles with an edit');

  // The accounts screen: the subscription's capacities, used against allowed (the imported
  // scan and its copy, the two tags), as the service counts them.
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Accounts' }).click();
  const usage = page.getByRole('group', { name: 'Usage of Main' });
  await usage.getByText(/^Scans$/).waitFor();
  const usageText = (await usage.textContent()) ?? '';
  assert.match(usageText, /Scans\s*2 of [\d,]+ used/);
  assert.match(usageText, /Tags\s*2 of [\d,]+ used/);
  // The default quota (STORAGE_QUOTA_BYTES unset: 100 GiB, src/config.ts).
  assert.match(usageText, /Storage\s*[\d.]+ (B|KiB) of 100\.00 GiB used/);
  await assertNoSeriousAxeViolations(page, 'accounts with usage');
  await screenshot(page, 'accounts-usage');

  // At phone width the project screen (cover, tabs, copy form) fits without sideways scrolling.
  await page.goto(`${server.url}${made.projectPath}?zone=${uuidOf(hall.id)}&tab=copy`);
  await signInThroughConsole(page, MIA, /tab=copy$/);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Copy zone' }).waitFor();
  const overflow = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > width + 1).map((e) => e.outerHTML.slice(0, 80));
    return { by: document.documentElement.scrollWidth - width, wide: wide.slice(0, 5) };
  });
  assert.ok(overflow.by <= 1, `sideways overflow at 390 px: ${JSON.stringify(overflow)}`);
  await screenshot(page, 'copy-phone');
  done = true;
});

test('the console: a Viewer sees the cover upload, the copy, crops, the file transformation, the tag-list rename and the new-tag form disabled with their reason', async (t) => {
  assert.ok(made.tagListPath, 'needs what the first test made');
  let done = false;
  t.after(async () => {
    if (!done) await showPages('more-viewer');
  });
  const roles = await apiAs(server, MIA.email, 'GET', `/api/2/accounts/${made.accountId}/roles`);
  const viewer = roles.find((r: { name: string }) => r.name === 'Viewer');
  await apiAs(server, MIA.email, 'POST', `/api/2/accounts/${made.accountId}/projects/${made.projectId}/members`, {
    members: { users: [{ user: VIC.email, role: viewer.id }] },
  });
  const page = await newPage();
  await page.goto(`${server.url}${made.projectPath}?zone=${made.hallId}&tab=copy`);
  await signInThroughConsole(page, VIC, /tab=copy$/);
  const disabled = async (name: string, why: RegExp) => {
    const b = page.getByRole('button', { name, exact: true });
    await b.waitFor();
    assert.equal(await b.isDisabled(), true, `${name} is disabled`);
    // The reason under the button (Action in console/src/ui.tsx), once the permissions are known.
    await page.locator(`#why-${name.replace(/\W+/g, '-').toLowerCase()}`).filter({ hasText: why }).waitFor();
  };
  await page.getByRole('button', { name: 'Project details' }).click();
  await disabled('Replace the cover', /Needs project:project:update-details/);
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await disabled('Copy zone', /Needs .*workzone:cad-model:read/);
  await page.getByRole('tab', { name: 'Crops' }).click();
  await disabled('Create crop', /Needs workzone:crops:write/);
  await page.getByRole('tab', { name: 'Files' }).click();
  await page.getByRole('button', { name: 'import-01.las', exact: true }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Transform import-01' }).count(), 0, 'no transformation for a Viewer');
  await page.getByRole('tab', { name: 'Tag lists' }).click();
  await disabled('Rename Pumps and valves', /Needs workzone:tags:write/);
  await page.goto(`${server.url}${made.tagListPath}`);
  await signInThroughConsole(page, VIC, new RegExp(`${made.tagListPath}$`));
  await disabled('Create tag', /Needs workzone:tags:write/);
  await assertNoSeriousAxeViolations(page, 'tag list as a Viewer');
  done = true;
});

test('the console: a 50,000-tag list\'s table keeps only the rows in view in the page; scrolling reaches the last tag; a filter narrows it; it fits a phone', async (t) => {
  assert.ok(made.projectId, 'needs the project of the first test');
  let done = false;
  t.after(async () => {
    if (!done) await showPages('more-table');
  });
  const p = `/api/2/accounts/${made.accountId}/projects/${made.projectId}`;
  const list = await apiAs(server, MIA.email, 'POST', `${p}/tag-lists`, { workzoneId: made.hallId, tagListType: '3d', name: 'Many' });
  const TAGS = 50_000;
  const BULK = 10_000;
  for (let k = 0; k < TAGS / BULK; k++) {
    const create = Array.from({ length: BULK }, (_, j) => {
      const i = k * BULK + j;
      const [x, y] = [(i % 250) * 2, Math.floor(i / 250) * 2];
      return { data: { id: `T-${String(i).padStart(5, '0')}`, name: `Tag ${i}`, class: i % 2 ? 'pipe' : 'valve', boundingBox: [x, y, 0, x + 1, y + 1, 1] } };
    });
    await apiAs(server, MIA.email, 'POST', `${p}/tag-lists/${uuidOf(list.id)}/tags/bulk`, { create });
  }
  const page = await newPage();
  const path = `/console/a/${made.accountId}/p/${made.projectId}/t/${uuidOf(list.id)}`;
  await page.goto(`${server.url}${path}`);
  await signInThroughConsole(page, MIA, new RegExp(`${path}$`));
  await page.locator(`canvas.scene[data-drawn="${TAGS}"]`).waitFor({ timeout: 90_000 });
  const table = page.getByRole('table');
  assert.equal(await table.getAttribute('aria-rowcount'), String(TAGS + 1));
  const inPage = () => page.locator('.tag-window tbody tr:not(.spacer)').count();
  const first = await inPage();
  assert.ok(first > 5 && first < 100, `rows in the page: ${first}`);
  await page.getByRole('button', { name: 'T-00000', exact: true }).waitFor();
  // To the bottom: the last tag is there, and still only a window of rows.
  await page.locator('.tag-window').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await page.getByRole('button', { name: `T-${TAGS - 1}`, exact: true }).waitFor();
  assert.ok((await inPage()) < 100, 'still a window of rows at the bottom');
  await page.getByRole('button', { name: `T-${TAGS - 1}`, exact: true }).click();
  await page.locator('[data-testid=picked-tag] .picked-name').filter({ hasText: `Tag ${TAGS - 1}` }).waitFor();
  // A filter: ten ids contain "T-4999" (T-49990 to T-49999).
  await page.getByLabel('Filter by id or name').fill('T-4999');
  await page.getByText(`10 of ${TAGS.toLocaleString('en')} tags`).waitFor();
  assert.equal(await inPage(), 10);
  await assertNoSeriousAxeViolations(page, 'a 50,000-tag list');
  await screenshot(page, 'tag-table-50000');
  // At phone width the page (3D view, new-tag form, table) fits without sideways scrolling: the table scrolls in its own box.
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `sideways overflow at 390 px: ${overflow}`);
  await screenshot(page, 'tag-table-phone');
  done = true;
});
