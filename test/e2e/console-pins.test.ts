// Annotations and measurements in the zone's 3D view, in Chromium (docs/console.md "Pins and
// measuring"), on the demo site (a scan and five boxes):
// - an annotation made through the API is drawn as a pin at its position, in its type's
//   colour; a click on the pin selects the annotation in the Annotations panel (and on the
//   selection card), and the panel's selection marks the pin;
// - "Place in 3D" then a click on a box gives a new annotation its position on that box;
// - the toolbar's measuring tool: two clicks on the scene show a distance; Save creates the
//   measurement (in the Measurements panel and through the API, with the points clicked) and
//   the zone's measurements are drawn as lines.
// @engine-independent (the console is a client of the API; the API's data path is tested in test/http)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { OAuthServer } from '../support/oauth-client.ts';
import { apiAs, assertNoSeriousAxeViolations, consoleWorld, signInThroughConsole } from '../support/console.ts';
import { DEMO_OWNER, demoSite, type DemoSite } from '../support/console-demo.ts';

let server: OAuthServer;
let site: DemoSite;
let base = '';
const world = consoleWorld();
const { newPage, showPages } = world;
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);
/** The demo site's survey coordinates (test/support/console-demo.ts: its scan and boxes are near them). */
const E = 500_000;
const N = 5_000_000;
let flangeId = '';

before(async () => {
  server = await world.start();
  site = await demoSite(server);
  base = `/api/2/accounts/${site.accountId}/projects/${site.projectId}`;
  // On the scan's floor, clear of the boxes.
  const made = await apiAs(server, DEMO_OWNER.email, 'POST', `${base}/annotations`, {
    workzoneId: site.zoneId, annotationType: 'Issue', title: 'Loose flange', position: { x: E + 6, y: N - 5, z: 9.6 }, savedView: null,
  });
  flangeId = uuidOf(made.id);
});
after(() => world.stop());

/**
 * Signed in on the zone's screen with its boxes, scan (read to the end) and pins drawn: the
 * view frames what arrives until the first click, so items are placed on screen after that.
 */
async function zoneOpen(tab: string): Promise<Page> {
  const page = await newPage({ width: 1280, height: 800 });
  await page.goto(`${server.url}${site.zonePath(tab)}`);
  await signInThroughConsole(page, DEMO_OWNER, new RegExp(`tab=${tab}$`));
  await page.locator('canvas.scene[data-drawn="5"]').waitFor({ timeout: 60_000 });
  await page.locator('canvas.scene:not([data-points="0"])').waitFor({ timeout: 60_000 });
  await page.locator('.scene-footer').waitFor({ state: 'detached', timeout: 60_000 });
  await onScreen(page, 'pins', flangeId);
  return page;
}

/** A point of the canvas, `dx` pixels right of its centre (where the view frames the scene: no overlay is there). */
async function besideCentre(page: Page, dx: number): Promise<{ x: number; y: number }> {
  const r = (await page.locator('canvas.scene').boundingBox())!;
  return { x: r.x + r.width / 2 + dx, y: r.y + r.height / 2 };
}

/** Where an item of a layer is on the screen, once it is drawn; and that the canvas (no overlay) is there. */
async function onScreen(page: Page, layerId: string, key: string): Promise<{ x: number; y: number }> {
  const handle = await page.waitForFunction(
    ({ layerId, key }) => {
      const p = (globalThis as any).__scanbaseZoneView?.screenPointOf(layerId, key);
      return p && document.elementFromPoint(p.x, p.y)?.matches('canvas.scene') ? p : null;
    },
    { layerId, key },
    { polling: 100, timeout: 30_000 },
  );
  return (await handle.jsonValue()) as { x: number; y: number };
}

/** The colour drawn at a point of the canvas (rendered now), as rrggbb. */
const pixelAt = (page: Page, at: { x: number; y: number }) =>
  page.evaluate((at) => {
    const view = (globalThis as any).__scanbaseZoneView;
    view.renderNow();
    const c = document.querySelector('canvas.scene') as HTMLCanvasElement;
    const r = c.getBoundingClientRect();
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const g = copy.getContext('2d')!;
    g.drawImage(c, 0, 0);
    const d = g.getImageData(Math.round(((at.x - r.left) * c.width) / r.width), Math.round(((at.y - r.top) * c.height) / r.height), 1, 1).data;
    return [d[0]!, d[1]!, d[2]!];
  }, at);

/** Within a few levels per channel (texture filtering) of #rrggbb. */
function near(rgb: number[], hex: string): boolean {
  const want = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return rgb.every((v, i) => Math.abs(v - want[i]!) <= 24);
}

const pinColour = (page: Page, key: string) => page.evaluate((key) => (globalThis as any).__scanbaseZoneView.layer('pins').colourOf(key)?.getHexString() ?? null, key);

test('an annotation is a pin at its position in its type\'s colour; picking the pin selects it in the Annotations panel, and the panel\'s selection marks the pin', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('pins-select');
  });
  const page = await zoneOpen('annotations');
  const pin = await onScreen(page, 'pins', flangeId);
  // An Issue's pin is red (#d93b3b) where it is drawn.
  const drawn = await pixelAt(page, pin);
  assert.ok(near(drawn, 'd93b3b'), `the pin is drawn in the Issue colour at its place: ${drawn}`);

  await page.mouse.click(pin.x, pin.y);
  const item = page.getByRole('listitem', { name: 'Annotation 1: Loose flange' });
  const name = item.getByRole('button', { name: '#1 Loose flange' });
  await page.locator('[data-testid=selection] .selection-name').filter({ hasText: '#1 Loose flange' }).waitFor();
  assert.equal(await name.getAttribute('aria-pressed'), 'true');
  assert.deepEqual(await page.evaluate(() => (globalThis as any).__scanbaseZoneView.getSelection()), { layerId: 'pins', key: flangeId });
  assert.equal(await pinColour(page, flangeId), 'ffb000', 'the selected pin is in the highlight colour');
  await assertNoSeriousAxeViolations(page, 'zone with a pin selected');

  // The panel → the view: cleared, then chosen in the list.
  await page.getByRole('button', { name: 'Clear the selection' }).click();
  await page.waitForFunction(() => (globalThis as any).__scanbaseZoneView.getSelection() === null);
  assert.equal(await pinColour(page, flangeId), 'd93b3b');
  assert.equal(await name.getAttribute('aria-pressed'), 'false');
  await name.click();
  await page.waitForFunction((key) => (globalThis as any).__scanbaseZoneView.getSelection()?.key === key, flangeId);
  assert.equal(await pinColour(page, flangeId), 'ffb000');
  done = true;
});

test('"Place in 3D": a click on a box gives the new annotation its position on that box, and its pin appears there', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('pins-place');
  });
  const page = await zoneOpen('annotations');
  const equipment = site.lists.find((l) => l.name === 'Equipment')!;
  // The day tank: x E+6..E+9, y N-1..N+2, z 9.6..13.6.
  const tank = await onScreen(page, `tags:${equipment.id}`, '2');
  const form = page.getByRole('form', { name: 'New annotation' });
  await form.getByLabel('Title').fill('Repaint the tank');
  await form.getByRole('button', { name: 'Place in 3D' }).click();
  await form.getByRole('button', { name: /Click a point in the 3D view/ }).waitFor();
  await page.mouse.click(tank.x, tank.y);
  await form.getByRole('button', { name: 'Place in 3D' }).waitFor();
  const at = (await form.getByLabel('Position (X, Y, Z)').inputValue()).split(',').map(Number);
  assert.equal(at.length, 3, String(at));
  const [x, y, z] = at as [number, number, number];
  const inside = x >= E + 6 - 0.01 && x <= E + 9 + 0.01 && y >= N - 1 - 0.01 && y <= N + 2 + 0.01 && z >= 9.6 - 0.01 && z <= 13.6 + 0.01;
  assert.ok(inside, `the point is on the day tank's box: ${at}`);
  // The click placed a point: it selected nothing.
  assert.equal(await page.locator('[data-testid=selection]').count(), 0);
  await form.getByRole('button', { name: 'Create annotation' }).click();
  await page.getByRole('listitem', { name: /Repaint the tank/ }).waitFor();
  const stored = (await apiAs(server, DEMO_OWNER.email, 'GET', `${base}/annotations`)) as { id: string; title: string; position: { x: number; y: number; z: number } }[];
  const repaint = stored.find((a) => a.title === 'Repaint the tank')!;
  assert.deepEqual([repaint.position.x, repaint.position.y, repaint.position.z], [x, y, z]);
  await onScreen(page, 'pins', uuidOf(repaint.id));
  done = true;
});

test('the measuring tool: two clicks in the scene show a distance; Save creates it (in the Measurements panel and the API) and it is drawn as a line', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('pins-measure');
  });
  const page = await zoneOpen('measurements');
  await page.getByText('No measurement in this zone yet.').waitFor();
  const equipment = site.lists.find((l) => l.name === 'Equipment')!;
  const tools = page.getByRole('toolbar', { name: '3D view' });
  await tools.getByRole('button', { name: 'Measure' }).click();
  const tool = page.getByRole('region', { name: 'Measure', exact: true });
  await tool.waitFor();
  assert.equal(await tools.getByRole('button', { name: 'Measure' }).getAttribute('aria-pressed'), 'true');
  const value = tool.getByTestId('measure-value');
  assert.match(await value.innerText(), /Click 2 more points/);
  // Two points 240 px apart across the middle of the view (on the boxes, the scan or the ground).
  const first = await besideCentre(page, -120);
  const second = await besideCentre(page, 120);
  await page.mouse.click(first.x, first.y);
  await value.filter({ hasText: /Click 1 more point/ }).waitFor();
  await page.mouse.click(second.x, second.y);
  await value.filter({ hasText: /^Length \d+\.\d{3} m$/ }).waitFor();
  const shown = Number(/Length (\S+) m/.exec(await value.innerText())![1]);
  // The scene is about 15 m across, framed in the view: 240 px are a few metres.
  assert.ok(shown > 0.5 && shown < 40, `a plausible distance: ${shown}`);
  await assertNoSeriousAxeViolations(page, 'zone with the measuring tool');
  // Clicks went to the tool: nothing was selected.
  assert.equal(await page.locator('[data-testid=selection]').count(), 0);

  await tool.getByLabel('Name').fill('Pump to tank');
  await tool.getByRole('button', { name: 'Save the measurement' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Pump to tank' });
  await row.waitFor();
  assert.equal(await row.getByRole('cell').nth(1).innerText(), 'distance');
  assert.equal(await row.getByRole('cell').nth(2).innerText(), `${shown.toFixed(3)} m`);
  await value.filter({ hasText: /Click 2 more points/ }).waitFor();

  const stored = (await apiAs(server, DEMO_OWNER.email, 'GET', `${base}/measurements`)) as { id: string; name: string; kind: string; length: number; workzoneId: string; points: unknown[] }[];
  const saved = stored.find((m) => m.name === 'Pump to tank');
  assert.ok(saved, JSON.stringify(stored));
  assert.equal(saved.kind, 'distance');
  assert.equal(uuidOf(saved.workzoneId), site.zoneId);
  assert.equal(saved.points.length, 2);
  assert.ok(Math.abs(saved.length - shown) < 0.0005, `the service's length ${saved.length} is the one shown (${shown})`);
  // Drawn as a line: the measurements layer holds it.
  await page.waitForFunction(() => ((globalThis as any).__scanbaseZoneView.layer('measurements')?.object.children.length ?? 0) >= 2);

  // Closing the tool gives clicks back to picking.
  await tool.getByRole('button', { name: 'Close the measuring tool' }).click();
  await tool.waitFor({ state: 'detached' });
  // (The feed pump: the day tank's centre holds the pin placed in the test before. The saved
  // line, drawn over everything and pickable, is hidden meanwhile: it may cross the pump.)
  const pump = await onScreen(page, `tags:${equipment.id}`, '0');
  await page.evaluate(() => (globalThis as any).__scanbaseZoneView.setVisible('measurements', false));
  await page.mouse.click(pump.x, pump.y);
  await page.locator('[data-testid=selection] .selection-name').filter({ hasText: 'Feed pump' }).waitFor();
  await page.evaluate(() => (globalThis as any).__scanbaseZoneView.setVisible('measurements', true));

  // The saved measurement is picked by its line: a click on it selects it (its card, its row,
  // the line in the selection's colour); a click on its row in the panel selects it too.
  const key = uuidOf(saved.id);
  /** Waits until the line is drawn in the selection's colour (or, with `selected` false, not). */
  const lineSelected = (selected: boolean) => page.waitForFunction(([k, want]) => {
    const l = (globalThis as any).__scanbaseZoneView.layer('measurements');
    const line = l.drawn.get(k)?.objects.find((o: any) => o.isLine);
    return line && (line.material.color.getHex() === 0xffb000) === want;
  }, [key, selected] as const, { timeout: 10_000 });
  await lineSelected(false);
  await page.locator('[data-testid=selection] button[aria-label="Clear the selection"]').click();
  const mid = await page.evaluate((k) => (globalThis as any).__scanbaseZoneView.screenPointOf('measurements', k), key);
  await page.mouse.click(mid.x, mid.y);
  const card = page.locator('[data-testid=selection]');
  await card.locator('.selection-name').filter({ hasText: 'Pump to tank' }).waitFor();
  assert.match(await card.innerText(), /distance[\s\S]*Length\s*\d+\.\d{1,2} m/);
  await lineSelected(true);
  assert.equal(await page.getByRole('button', { name: 'Pump to tank', exact: true }).getAttribute('aria-pressed'), 'true');
  await page.locator('[data-testid=selection] button[aria-label="Clear the selection"]').click();
  await lineSelected(false);
  await page.getByRole('button', { name: 'Pump to tank', exact: true }).click();
  await card.locator('.selection-name').filter({ hasText: 'Pump to tank' }).waitFor();
  await lineSelected(true);
  done = true;
});
