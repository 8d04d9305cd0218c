// The console's share links in Chromium (docs/share-links.md): an annotation and a measurement
// made in the zone, the zone shared with the Share button (with a password), the link opened
// in a fresh browser context without signing in, its password asked, the annotation and the
// measurement seen; after the link's deletion the same address is refused. A converted scan
// shared with a box limit, seen in 3D through the share session's node routes: points drawn,
// none outside the box, no read of the whole file.
// @engine-independent (the console is a client of the API; the API's data path is tested in test/http)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { OAuthServer } from '../support/oauth-client.ts';
import crypto from 'node:crypto';
import { apiAs, assertNoSeriousAxeViolations, consoleWorld, lasFileOf, signInThroughConsole } from '../support/console.ts';

const ANA = { email: 'ana@console-share.test', password: 'ana-password-1' };
const PASSWORD = 'Correct-Horse-9';

let server: OAuthServer;
const world = consoleWorld();
const { newPage, showPages } = world;
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);
const made = { p: '', path: '', zoneId: '' };

before(async () => {
  server = await world.start();
  await server.seed({
    users: [{ ...ANA, firstName: 'Ana', lastName: 'Console' }],
    accounts: [{ name: 'Share Inc', owner: ANA.email, projectManagers: [ANA.email], subscriptions: [{ name: 'Main', isActive: true }] }],
  });
  const [account] = await apiAs(server, ANA.email, 'GET', '/api/2/accounts');
  const a = `/api/2/accounts/${uuidOf(account.id)}`;
  const project = await apiAs(server, ANA.email, 'POST', `${a}/projects`, { name: 'Plant west', subscriptionId: account.subscriptions[0].id });
  made.p = `${a}/projects/${uuidOf(project.id)}`;
  made.zoneId = uuidOf(project.rootWorkzoneId);
  made.path = `/console/a/${uuidOf(account.id)}/p/${uuidOf(project.id)}`;
  await apiAs(server, ANA.email, 'POST', `${made.p}/annotations`, {
    workzoneId: project.rootWorkzoneId, annotationType: 'Issue', title: 'Leaking valve', position: { x: 12.5, y: -3, z: 1.25 }, savedView: null,
  });
  await apiAs(server, ANA.email, 'POST', `${made.p}/measurements`, {
    workzoneId: project.rootWorkzoneId, name: 'Pipe run', kind: 'distance', points: [{ x: 0, y: 0, z: 0 }, { x: 3, y: 4, z: 0 }],
  });
});
after(() => world.stop());

test('the console: the zone shared with a password, opened without an account, read-only; refused once deleted', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('share-links');
  });
  const page = await newPage();
  await page.goto(`${server.url}${made.path}?zone=${made.zoneId}&tab=annotations`);
  await signInThroughConsole(page, ANA, /tab=annotations$/);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const form = page.getByRole('form', { name: 'New share link' });
  await form.getByLabel('Link name').fill('For the contractor');
  await form.getByLabel('Password (optional)').fill(PASSWORD);
  await form.getByRole('button', { name: 'Create the link' }).click();
  const field = page.getByLabel('Share link', { exact: true });
  await field.waitFor();
  const link = await field.inputValue();
  assert.match(link, /\/share\/[0-9a-f-]{36}$/);
  const [stored] = await apiAs(server, ANA.email, 'GET', `${made.p}/share-links`);
  assert.deepEqual([stored.name, stored.passwordProtected, stored.workzoneId.endsWith(made.zoneId)], ['For the contractor', true, true]);

  // A fresh browser context: no session, no cookie of the service.
  const guest = await newPage();
  const address = `${server.url}/share/${uuidOf(stored.id)}`;
  await guest.goto(address);
  await guest.getByRole('form', { name: 'Share link password' }).getByLabel('Password').fill(PASSWORD);
  await guest.getByRole('button', { name: 'Open' }).click();
  await guest.getByRole('list', { name: 'Shared annotations' }).getByText(/Leaking valve/).waitFor();
  await guest.getByRole('list', { name: 'Shared measurements' }).getByText(/Pipe run/).waitFor();
  assert.equal(await guest.getByRole('button', { name: 'Sign out' }).count(), 0, 'no account session');
  await assertNoSeriousAxeViolations(guest, 'shared view');

  await apiAs(server, ANA.email, 'DELETE', `${made.p}/share-links/${uuidOf(stored.id)}`);
  const again = await newPage();
  await again.goto(address);
  await again.getByText(/No sharelink with id/).waitFor();
  assert.equal(await again.getByRole('form', { name: 'Share link password' }).count(), 0);
  done = true;
});

/** A 30 × 30 × 10 grid of points over x, y in [0, 10) m and z in [0, 3) m. */
const GRID = { nx: 30, ny: 30, nz: 10 };
const gridPoint = (i: number): [number, number, number] => {
  const x = i % GRID.nx;
  const y = Math.floor(i / GRID.nx) % GRID.ny;
  const z = Math.floor(i / (GRID.nx * GRID.ny));
  return [(x * 10) / GRID.nx + 0.1, (y * 10) / GRID.ny + 0.1, (z * 3) / GRID.nz + 0.1];
};

test('a converted scan shared with a box limit, in 3D from the link: streamed through the session\'s node routes, points drawn and none outside the box', { timeout: 5 * 60_000 }, async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('share-links-3d');
  });
  const count = GRID.nx * GRID.ny * GRID.nz;
  const las = lasFileOf(count, gridPoint);
  const item = { name: 'survey', extension: 'las', size: las.length, md5: crypto.createHash('md5').update(las).digest('hex') };
  const [signed] = (await apiAs(server, ANA.email, 'POST', `${made.p}/workzones/${made.zoneId}/bulk-files`, [item])).files;
  const put = await fetch(signed.url, {
    method: 'PUT', body: new Uint8Array(las),
    headers: { 'content-md5': crypto.createHash('md5').update(las).digest('base64'), 'x-ms-blob-type': 'BlockBlob' },
  });
  assert.ok(put.ok, `PUT: ${put.status} ${await put.text()}`);
  await apiAs(server, ANA.email, 'POST', `${made.p}/workzones/${made.zoneId}/bulk-files`, [{ ...item, blobName: signed.blobName }]);
  const file = (await apiAs(server, ANA.email, 'GET', `${made.p}/files`)).find((f: { name: string }) => f.name === 'survey');
  for (const started = Date.now(); ;) {
    const state = await apiAs(server, ANA.email, 'GET', `${made.p}/files/${uuidOf(file.id)}/point-cloud`);
    if (state.state === 'done') break;
    assert.notEqual(state.state, 'failed', state.message);
    assert.ok(Date.now() - started < 180_000, `conversion still ${state.state}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  // The west half of the grid: x ≤ 5 m.
  const box = { min: [-1, -1, -1], max: [5, 11, 4] };
  const inside = Array.from({ length: count }, (_, i) => gridPoint(i)).filter(([x]) => x <= box.max[0]!).length;
  const link = await apiAs(server, ANA.email, 'POST', `${made.p}/share-links`, {
    name: 'West half', workzoneId: made.zoneId, membershipRequired: false, boxLimit: box,
    shareOptions: { workzones: false, notes: false, issues: false, measurements: false, crops: false, tags: false },
  });

  const guest = await newPage();
  const reads: { url: string; status: number }[] = [];
  guest.on('response', (res) => {
    if (/\/share\/|\/_blobs\/|\/point-cloud\/copc/.test(res.url())) reads.push({ url: new URL(res.url()).pathname, status: res.status() });
  });
  await guest.goto(`${server.url}/share/${uuidOf(link.id)}`);
  await guest.getByRole('button', { name: 'View survey in 3D' }).click();
  await guest.locator('canvas.scene:not([data-points="0"])').waitFor({ timeout: 120_000 });
  await guest.getByRole('status').filter({ hasText: 'limited to the box this link shares' }).waitFor();
  // Every node the view picks for this camera, held; then the points it holds, in project coordinates.
  await guest.waitForFunction((id) => {
    const l = (globalThis as any).__scanbaseZoneView.layer(id);
    return l && l.loading.size === 0 && l.wanted.length > 0 && l.wanted.every((k: string) => l.held.has(k));
  }, `shared:${uuidOf(file.id)}`, { timeout: 60_000 });
  const held = await guest.evaluate((id) => {
    const v = (globalThis as any).__scanbaseZoneView;
    const l = v.layer(id);
    const origin = v.origin();
    let points = 0;
    let maxX = -Infinity;
    for (const h of l.held.values()) {
      const pos = h.points.geometry.getAttribute('position');
      for (let i = 0; i < pos.count; i++) maxX = Math.max(maxX, pos.getX(i) + origin.x);
      points += pos.count;
    }
    return { points, maxX, nodes: l.held.size };
  }, `shared:${uuidOf(file.id)}`);
  t.diagnostic(`held ${held.points} points in ${held.nodes} nodes, largest x ${held.maxX}; ${inside} of ${count} points are inside the box`);
  assert.ok(held.points > 0 && held.points <= inside, `${held.points} points held, ${inside} inside the box`);
  assert.ok(held.maxX <= box.max[0]! + 1e-3, `a point at x = ${held.maxX} reached the page, outside the box (x ≤ ${box.max[0]})`);
  const nodeReads = reads.filter((r) => r.url.includes('/point-cloud/nodes/'));
  assert.ok(nodeReads.length > 0 && nodeReads.every((r) => r.status === 200), JSON.stringify(reads));
  assert.deepEqual(reads.filter((r) => r.url.includes('/_blobs/') || r.url.endsWith('/point-cloud/copc') || r.url.endsWith('/content')), [], 'no read of the whole file');
  await assertNoSeriousAxeViolations(guest, 'shared view in 3D');
  done = true;
});
