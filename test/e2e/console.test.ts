// The web console (issue 18) in headless Chromium against one started server: sign in
// with PKCE through the console's own callback, create a project, invite a user, read the reports (CSV), make a
// custom role and a group, create a zone, survive a reload (without signing in again), upload two files by drag and drop, export the zone with a connect
// job, add the invited user as a member with a role and an expiry, see a
// tag list's axis-aligned and oriented boxes drawn in 3D and pick one, show the LAS scan's
// points with them, sign out (the
// refresh token is revoked); after the access token expires, one refresh serves the calls
// that were refused together (single-use refresh tokens); a Viewer sees no write action and a non-member is told why;
// axe-core finds no serious or critical violation on the main screens.
// Screenshots are kept in .tmp/artifacts/console/.
// @engine-independent (the console is a client of the API; the API's data path is tested elsewhere)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tokenRequest, type OAuthServer } from '../support/oauth-client.ts';
import { apiAs, assertNoSeriousAxeViolations, consoleWorld, lasFile, screenshot, signInThroughConsole, paintedPixels } from '../support/console.ts';

const MIA = { email: 'mia@console.test', password: 'mia-password-1' };
const VIC = { email: 'vic@console.test', password: 'vic-password-1' };
const NED = { email: 'ned@console.test', password: 'ned-password-1' };
/** Invited through the console (not seeded). */
const IVY = 'ivy@console.test';

let server: OAuthServer;
const world = consoleWorld();
const { newPage, showPages } = world;

before(async () => {
  server = await world.start();
  await server.seed({
    users: [MIA, VIC, NED].map((u) => ({ ...u, firstName: u.email.slice(0, 3), lastName: 'Console' })),
    accounts: [
      {
        name: 'Console Inc',
        owner: MIA.email,
        projectManagers: [MIA.email],
        members: [VIC.email, NED.email],
        subscriptions: [{ name: 'Main', isActive: true }],
      },
    ],
  });
});
after(() => world.stop());

const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

/** Shared by the tests below: what the first test created. */
const made = { accountId: '', projectId: '', zoneId: '', projectPath: '', done: false };

test('the console: sign in (PKCE, own callback), create a project, invite a user, reports as CSV, a custom role and a group, create a zone, reload, drop two files, connect export, add the invitee as a member with an expiry, see and pick 3D boxes, sign out', async (t) => {
  t.after(async () => {
    if (!made.done) await showPages('main-flow');
  });
  const page = await newPage();
  const res = await page.goto(`${server.url}/console/`);
  assert.equal(res?.status(), 200);
  const csp = res!.headers()['content-security-policy'] ?? '';
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval';/);
  assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/);
  // The service runs with SANDBOX on here: the banner says so.
  await page.getByRole('note').filter({ hasText: 'Sandbox' }).waitFor();

  const authorizeUrl = (await signInThroughConsole(page, MIA, /\/console\/$/))!;
  assert.ok(authorizeUrl, 'signed in through the authorize page');
  assert.equal(authorizeUrl.searchParams.get('redirect_uri'), `${server.url}/console/callback`);
  assert.match(authorizeUrl.searchParams.get('state') ?? '', /^[a-z0-9]+$/);
  assert.equal(authorizeUrl.searchParams.get('code_challenge_method'), 'S256');
  await page.getByRole('link', { name: 'Console Inc' }).waitFor();
  await assertNoSeriousAxeViolations(page, 'accounts');

  // Projects: create one.
  await page.getByRole('link', { name: 'Console Inc' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
  made.accountId = page.url().split('/console/a/')[1]!;
  await page.getByText('No project yet.').waitFor();
  await page.getByLabel('New project name').fill('Refinery north');
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('link', { name: 'Refinery north' }).waitFor();
  await assertNoSeriousAxeViolations(page, 'projects');
  await screenshot(page, 'projects');

  // Invite a user to the account.
  await page.getByRole('link', { name: 'Users of the account' }).click();
  await page.getByRole('heading', { name: 'Users' }).waitFor();
  await page.getByLabel('E-mail to invite').fill(IVY);
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await page.getByRole('cell', { name: IVY, exact: true }).waitFor();
  // Joining an account is an invitation the user accepts (docs/security.md "Invitations"): Ivy accepts hers.
  await apiAs(server, IVY, 'POST', `/api/2/me/invitations/${made.accountId}/accept`);
  // …and make them a project lister.
  await page.getByRole('button', { name: `Change roles of ${IVY}` }).click();
  await page.getByRole('group', { name: `Account roles of ${IVY}` }).getByLabel('Project lister').check();
  await page.getByRole('button', { name: `Save roles of ${IVY}` }).click();
  await page.getByRole('row').filter({ hasText: IVY }).filter({ hasText: 'Project lister' }).waitFor();
  await assertNoSeriousAxeViolations(page, 'users');
  await page.goBack();

  // The API 1 reports, exported as CSV.
  await page.getByRole('link', { name: 'Reports' }).click();
  await page.getByRole('cell', { name: 'Refinery north' }).waitFor();
  await page.getByRole('cell', { name: IVY, exact: true }).waitFor();
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Projects last accessed as CSV' }).click()]);
  assert.equal(csv.suggestedFilename(), 'projects-last-accessed.csv');
  const text = fs.readFileSync((await csv.path())!, 'utf8');
  assert.match(text, /^Project,Project id,Subscription id,Last accessed\r\nRefinery north,/);
  await assertNoSeriousAxeViolations(page, 'reports');
  await page.goBack();

  // A custom role (a combination of the spec's legacy permissions) and a group.
  await page.getByRole('link', { name: 'Roles' }).click();
  await page.getByLabel('New role name').fill('Tag keeper');
  await page.getByLabel('See tags').check();
  await page.getByLabel('Edit tags').check();
  await page.getByRole('button', { name: 'Create role' }).click();
  const role = page.getByRole('row').filter({ hasText: 'Tag keeper' });
  await role.waitFor();
  assert.match((await role.textContent()) ?? '', /workzone:tags:write/);
  await assertNoSeriousAxeViolations(page, 'roles');
  await page.goBack();
  await page.getByRole('link', { name: 'Groups' }).click();
  await page.getByLabel('New group name').fill('Field team');
  await page.getByRole('button', { name: 'Create group' }).click();
  await page.getByLabel('Add a user to Field team').selectOption({ label: VIC.email });
  await page.getByRole('button', { name: `Remove ${VIC.email} from Field team` }).waitFor();
  await assertNoSeriousAxeViolations(page, 'groups');
  await page.goBack();

  // The project and a work zone under its root.
  await page.getByRole('link', { name: 'Refinery north' }).click();
  await page.getByRole('tree', { name: 'Work zones' }).waitFor();
  await page.getByLabel(/^New zone under/).fill('Level 1');
  await page.getByRole('button', { name: 'Create zone' }).click();
  await page.getByRole('treeitem').getByRole('button', { name: 'Level 1' }).click();
  await page.waitForURL(/\?zone=[0-9a-f-]{36}&tab=files$/);
  const url = new URL(page.url());
  made.projectPath = url.pathname;
  made.projectId = url.pathname.split('/p/')[1]!;
  made.zoneId = url.searchParams.get('zone')!;
  await page.getByRole('heading', { name: 'Level 1', level: 2 }).waitFor();

  // The route survives a reload, and so does the session (the console's cookie): no sign-in.
  await page.reload();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  assert.match(page.url(), new RegExp(`\\?zone=${made.zoneId}&tab=files$`));
  await page.getByRole('heading', { name: 'Level 1', level: 2 }).waitFor();

  // Two files dropped on the zone: signed, PUT with progress, registered, then listed.
  await page.getByText('No file in this zone yet.').waitFor();
  // The scan is a LAS point cloud: a 40 × 30 grid of ground points under the boxes made below.
  const grid: [number, number, number][] = [];
  for (let i = 0; i < 40; i++) for (let j = 0; j < 30; j++) grid.push([500_000 - 2 + i * 0.3, 5_000_000 - 7 + j * 0.35, 9.5]);
  const las = [...lasFile(grid)];
  const dropped = await page.evaluateHandle((bytes) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(bytes)], 'station-01.las', { type: 'application/octet-stream' }));
    dt.items.add(new File(['%PDF-1.4 report'], 'survey-report.pdf', { type: 'application/pdf' }));
    return dt;
  }, las);
  await page.dispatchEvent('[data-testid=drop-zone]', 'dragover', { dataTransfer: dropped });
  await page.dispatchEvent('[data-testid=drop-zone]', 'drop', { dataTransfer: dropped });
  await page.getByRole('button', { name: 'station-01.las', exact: true }).waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'survey-report.pdf', exact: true }).waitFor();
  const states = await page.locator('.uploads .state').allTextContents();
  assert.deepEqual(states, ['done', 'done']);
  await assertNoSeriousAxeViolations(page, 'files');
  await screenshot(page, 'files');

  // A connect export of the zone: ready at once, with the scan to download.
  await page.getByRole('tab', { name: 'Connect' }).click();
  await page.getByRole('button', { name: 'Start an export' }).click();
  await page.locator('.job-state').filter({ hasText: 'ready' }).waitFor();
  await page.getByRole('link', { name: /station-01/ }).waitFor();
  await assertNoSeriousAxeViolations(page, 'connect');

  // The invited user becomes a member with a role and an expiry, on this zone.
  await page.getByRole('tab', { name: 'Members' }).click();
  await page.getByLabel('E-mail of the user').fill(IVY);
  await page.getByLabel('Role').selectOption({ label: 'Viewer' });
  await page.getByLabel('Access until (optional)').fill('2030-06-30');
  await page.getByRole('button', { name: 'Add member' }).click();
  const row = page.getByRole('row').filter({ hasText: IVY });
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /Viewer.*2030-06-30/);
  await assertNoSeriousAxeViolations(page, 'members');

  // A tag list made through the API: two axis-aligned boxes and an oriented one, in survey
  // coordinates (the view shifts them to keep float precision).
  const base = `/api/2/accounts/${made.accountId}/projects/${made.projectId}`;
  const list = await apiAs(server, MIA.email, 'POST', `${base}/tag-lists`, { workzoneId: made.zoneId, tagListType: '3d', name: 'Equipment' });
  const E = 500_000;
  const N = 5_000_000;
  const s = Math.SQRT1_2;
  await apiAs(server, MIA.email, 'POST', `${base}/tag-lists/${uuidOf(list.id)}/tags/bulk`, {
    create: [
      { data: { id: 'P-101', name: 'Feed pump', class: 'pump', boundingBox: [E, N, 10, E + 2, N + 1, 11.5] } },
      { data: { id: 'T-201', name: 'Day tank', class: 'tank', boundingBox: [E + 6, N - 1, 10, E + 9, N + 2, 14] } },
      // Turned 90° about Z: a 4 m × 0.6 m × 0.6 m valve body, on the camera's side of the others.
      { data: { id: 'V-301', name: 'Isolation valve', class: 'valve', orientedBoundingBox: [E + 3, N - 5, 11, 0, 0, s, s, 4, 0.6, 0.6] } },
    ],
  });
  await page.getByRole('tab', { name: 'Tag lists' }).click();
  await page.getByRole('link', { name: 'Equipment' }).click();
  await page.locator('canvas.scene[data-drawn="3"]').waitFor({ timeout: 30_000 });
  await page.getByRole('cell', { name: 'Isolation valve' }).waitFor();
  // Drawn: the canvas holds the boxes' colours, not only the background.
  const painted = await paintedPixels(page);
  await screenshot(page, 'tag-list-3d', { selector: 'canvas.scene' });
  assert.ok(painted.boxes > painted.total * 0.005, `box pixels: ${JSON.stringify(painted)}`);

  // Click the oriented box: its fields are shown.
  const valve = await page.evaluate(() => {
    // The view's handle for tests and the benchmark (console/src/screens/tag-list.tsx).
    const h = (globalThis as any).__scanbaseBoxScene;
    return h.scene.screenPointOf(h.layer.id, String(h.tags.findIndex((t: { data: { id: string } }) => t.data.id === 'V-301'))) as { x: number; y: number } | null;
  });
  assert.ok(valve);
  await page.mouse.click(valve.x, valve.y);
  await page.locator('[data-testid=picked-tag] .picked-name').filter({ hasText: 'Isolation valve' }).waitFor();

  // The scan's points under the boxes (LAS through @loaders.gl/las, streamed, decimated).
  await page.getByLabel("Show a scan's points").selectOption({ label: 'station-01.las' });
  await page.locator(`canvas.scene[data-points="${grid.length}"]`).waitFor({ timeout: 30_000 });
  await page.getByText(`${grid.length.toLocaleString('en')} points shown of ${grid.length.toLocaleString('en')}`).waitFor();
  await screenshot(page, 'tag-list-3d-with-scan', { selector: 'canvas.scene' });

  // Delete a tag from its fields (picked in the table): two boxes are left.
  await page.getByRole('button', { name: 'T-201', exact: true }).click();
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Delete tag' }).click();
  await page.locator('canvas.scene[data-drawn="2"]').waitFor();
  await assertNoSeriousAxeViolations(page, 'tag list');
  await screenshot(page, 'tag-list');

  // Sign out revokes the refresh token the browser held (in the console's HttpOnly cookie).
  const refreshToken = (await page.context().cookies()).find((c) => c.name === 'sb_console')?.value;
  assert.ok(refreshToken);
  const [end] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/console/session/end')), page.getByRole('button', { name: 'Sign out' }).click()]);
  assert.equal(end.status(), 200);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  assert.equal((await page.context().cookies()).find((c) => c.name === 'sb_console'), undefined);
  const again = await tokenRequest(server.http, { grant_type: 'refresh_token', refresh_token: refreshToken });
  // The revoked token no longer refreshes (the service answers an RFC 6749 error).
  assert.ok(again.status === 400 || again.status === 401, `refresh after sign-out: ${again.status} ${again.body}`);
  assert.equal(typeof JSON.parse(again.body).error, 'string');
  made.done = true;
});

test('the console: an expired token is refreshed once for parallel calls; a Viewer sees write actions disabled with their reason; a non-member is told not-member-of-project', async () => {
  assert.ok(made.projectId, 'needs the project of the first test');
  const roles = await apiAs(server, MIA.email, 'GET', `/api/2/accounts/${made.accountId}/roles`);
  const viewer = roles.find((r: { name: string }) => r.name === 'Viewer');
  await apiAs(server, MIA.email, 'POST', `/api/2/accounts/${made.accountId}/projects/${made.projectId}/members`, {
    members: { users: [{ user: VIC.email, role: viewer.id }] },
  });

  const page = await newPage();
  await page.goto(`${server.url}${made.projectPath}`);
  await signInThroughConsole(page, VIC, new RegExp(`${made.projectPath}$`));
  await page.getByRole('tree', { name: 'Work zones' }).waitFor();

  // The access token expires (the service's clock moves 3 h on): the next screen's calls all
  // answer 401 at once, and the console refreshes once (refresh tokens are single-use), then
  // retries them with the new token.
  const refreshes: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/console/session/refresh')) refreshes.push(r.url());
  });
  await server.advanceClock(3 * 3600 + 60);
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Console Inc' }).click();
  await page.getByRole('link', { name: 'Refinery north' }).waitFor();
  assert.equal(refreshes.length, 1, 'one refresh for the parallel calls');
  await page.getByRole('link', { name: 'Refinery north' }).click();
  await page.getByRole('tree', { name: 'Work zones' }).waitFor();
  assert.equal(refreshes.length, 1, 'the new token serves the next screen');
  const disabled = async (name: string) => {
    const b = page.getByRole('button', { name, exact: true });
    await b.waitFor();
    assert.equal(await b.isDisabled(), true, `${name} is disabled`);
  };
  await disabled('Create zone');
  await disabled('Choose files');
  await page.locator('#why-create-zone').filter({ hasText: 'Needs workzone:workzones:write' }).waitFor();
  await page.getByRole('tab', { name: 'Members' }).click();
  await disabled('Add member');
  await page.getByRole('tab', { name: 'Tag lists' }).click();
  await disabled('Create tag list');
  await assertNoSeriousAxeViolations(page, 'project as a Viewer');

  // At phone width the screen fits without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `sideways overflow at 390 px: ${overflow}`);
  await screenshot(page, 'project-viewer-phone');

  // Ned is in the account but not in the project.
  const outsider = await newPage();
  await outsider.goto(`${server.url}${made.projectPath}`);
  await signInThroughConsole(outsider, NED, new RegExp(`${made.projectPath}$`));
  const alert = outsider.getByRole('alert');
  await alert.filter({ hasText: 'not-member-of-project' }).waitFor();
  assert.match((await alert.textContent()) ?? '', /You are not a member of this project: ask a project manager to add you\./);
  assert.match((await alert.textContent()) ?? '', /Requires:/);
});
