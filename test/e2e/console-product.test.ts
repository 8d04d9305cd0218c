// The console as a product (issue 27 "The console as a product", issue 26 items 9 and 10)
// in headless Chromium at 1280 × 800 and 390 × 844, against one started service whose signed
// blob URLs are on another origin (BLOB_PUBLIC_URL) and whose refresh tokens have reuse
// detection on:
// - sign in once, reload (and open a new tab) without signing in again; two tabs reloading
//   at once both stay signed in (single-use refresh tokens, reuse detection on);
// - the zone's screen: the 3D view fills its panel; selecting a tag in its list highlights
//   it in the scene, and picking a box in the scene selects it in the list, with no layout
//   shift (measured with the browser's layout-shift entries and the panels' positions);
// - human category names, breadcrumbs with the account, project cards, dark mode, no error
//   and spinner at once, the unreachable-service banner, and Try again;
// - a crafted address (`?zone=../../../projects/P2/…`) sends nothing to another project;
// - a scan dropped on the zone is uploaded to the blob origin and drawn from it.
// axe-core finds no serious or critical violation on each screen, at both sizes.
// @engine-independent (the console is a client of the API; the API's data path is tested elsewhere)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import util from 'node:util';
import type { Page, Request } from 'playwright-core';
import type { OAuthServer } from '../support/oauth-client.ts';
import { apiAs, assertNoSeriousAxeViolations, consoleWorld, lasFile, paintedPixels, screenshot, signInThroughConsole } from '../support/console.ts';
import { DEMO_OWNER, demoSite, type DemoSite } from '../support/console-demo.ts';

let server: OAuthServer;
let site: DemoSite;
const world = consoleWorld();
const { newPage, showPages } = world;

before(async () => {
  server = await world.start({ blobOrigin: true, env: { REFRESH_TOKEN_REUSE_DETECTION: '1' } });
  site = await demoSite(server);
});
after(() => world.stop());

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Every request the page sends, from now on. */
function recordRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => seen.push(r));
  return seen;
}

/** Waits for the zone's view to hold the demo's five boxes and its scan's points. */
async function zoneDrawn(page: Page): Promise<void> {
  await page.locator('canvas.scene[data-drawn="5"]').waitFor({ timeout: 60_000 });
  await page.locator('canvas.scene:not([data-points="0"])').waitFor({ timeout: 60_000 });
}

/** A browser context signed in on the zone's screen. */
async function signedInZone(viewport = DESKTOP, tab = 'tags'): Promise<Page> {
  const page = await newPage(viewport);
  // What the top of the page shows besides the zone (the account's notices, the account menu's
  // user and invitations) may come after the zone on a loaded machine and take its place
  // once (a notice's line; on a phone, the header's height): the geometry is read after them.
  const answered = (suffix: string) =>
    page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname.endsWith(suffix), { timeout: 60_000 });
  const notices = answered('/notices');
  const besides = [answered('/oauth/userinfo'), answered('/api/2/me/invitations')];
  await page.goto(`${server.url}${site.zonePath(tab)}`);
  await signInThroughConsole(page, DEMO_OWNER, new RegExp(`tab=${tab}$`));
  await zoneDrawn(page);
  await Promise.all(besides);
  if (((await (await notices).json()) as unknown[]).length) await page.locator('section.banner.notice').first().waitFor();
  // Then a quiet page: the scan's reading over (its footer gone) and no answer arriving for a
  // second, so that what moves afterwards is the test's doing (on a loaded machine the last
  // answers of the opening arrive late).
  await page.waitForFunction(
    () => {
      const g = globalThis as any;
      const n = performance.getEntriesByType('resource').length;
      if (g.__quietCount !== n) {
        g.__quietCount = n;
        g.__quietSince = performance.now();
      }
      return !document.querySelector('.scene-footer') && performance.now() - g.__quietSince > 1000;
    },
    undefined,
    { polling: 100, timeout: 60_000 },
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page;
}

/** The view's selection and the highlight colour of an item, read from the page's view. */
const selectionOf = (page: Page) =>
  page.evaluate(() => {
    const v = (globalThis as any).__scanbaseZoneView;
    return v.getSelection() as { layerId: string; key: string } | null;
  });
const highlighted = (page: Page, layerId: string, key: string) =>
  page.evaluate(
    ({ layerId, key }) => {
      const v = (globalThis as any).__scanbaseZoneView;
      const c = v.layer(layerId).colourOf(key);
      return c ? c.getHexString() : null;
    },
    { layerId, key },
  );

test('a session that lasts: sign in once, then a reload and a new tab need no sign-in; the console skips the approval page', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('product-session');
  });
  const page = await newPage(DESKTOP);
  const requests = recordRequests(page);
  await page.goto(`${server.url}${site.zonePath()}`);
  await signInThroughConsole(page, DEMO_OWNER, /tab=files$/);
  // First-party client: no approval page was shown (no Allow button, no POST /oauth/authorize).
  assert.equal(requests.filter((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/oauth/authorize').length, 0);
  // The refresh token never reaches the page: the session endpoint answers the access token only.
  const exchange = requests.find((r) => new URL(r.url()).pathname === '/console/session');
  assert.ok(exchange, 'the code is exchanged at /console/session');
  const answer = await (await exchange.response())!.json();
  assert.deepEqual(Object.keys(answer).sort(), ['access_token', 'expires_in', 'token_type', 'user_id']);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'sb_console');
  assert.ok(cookie, 'the refresh cookie is set');
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, 'Strict');
  assert.equal(cookie.path, '/console/session');
  assert.equal(await page.evaluate(() => document.cookie.includes('sb_console')), false);
  await zoneDrawn(page);

  // A reload: the same screen, signed in, without the authorize page.
  requests.length = 0;
  await page.reload();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await zoneDrawn(page);
  assert.equal(requests.filter((r) => r.url().includes('/oauth/authorize')).length, 0, 'no sign-in after the reload');
  assert.equal(requests.filter((r) => new URL(r.url()).pathname === '/console/session/refresh').length, 1);

  // A new tab of the same browser is signed in too.
  const tab = await page.context().newPage();
  await tab.goto(`${server.url}/console/`);
  await tab.getByRole('link', { name: 'Console Inc' }).waitFor();
  await tab.close();
  done = true;
});

test('two tabs reloading at once both stay signed in (single-use refresh tokens with reuse detection), and sign-out ends the session in both', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('product-two-tabs');
  });
  const first = await signedInZone(DESKTOP);
  const second = await first.context().newPage();
  await second.goto(`${server.url}/console/a/${site.accountId}`);
  await second.getByRole('link', { name: 'Refinery north' }).waitFor();
  const refreshes: { status: number }[] = [];
  for (const p of [first, second]) {
    p.on('response', (r) => {
      if (new URL(r.url()).pathname === '/console/session/refresh') refreshes.push({ status: r.status() });
    });
  }
  for (let round = 0; round < 2; round++) {
    await Promise.all([first.reload(), second.reload()]);
    await Promise.all([first.getByRole('button', { name: 'Sign out' }).waitFor(), second.getByRole('button', { name: 'Sign out' }).waitFor()]);
  }
  assert.deepEqual(refreshes.map((r) => r.status), [200, 200, 200, 200], 'every refresh of both tabs succeeded');
  await first.getByRole('tree', { name: 'Work zones' }).waitFor();
  await second.getByRole('link', { name: 'Refinery north' }).waitFor();
  // A third reload still works: reuse detection did not revoke the session.
  await second.reload();
  await second.getByRole('link', { name: 'Refinery north' }).waitFor();

  // Sign out in one tab: the other is told, and a reload asks to sign in.
  await first.getByRole('button', { name: 'Sign out' }).click();
  await first.getByRole('button', { name: 'Sign in' }).waitFor();
  await second.getByRole('button', { name: 'Sign in' }).waitFor();
  await second.reload();
  await second.getByRole('button', { name: 'Sign in' }).waitFor();
  done = true;
});

for (const viewport of [DESKTOP, PHONE]) {
  const size = `${viewport.width}×${viewport.height}`;

  test(`at ${size}: the zone's 3D view fills its panel; selecting a tag in the list highlights it in the scene and picking a box selects it in the list, without layout shift`, async (t) => {
    let done = false;
    t.after(async () => {
      if (!done) await showPages(`product-zone-${viewport.width}`);
    });
    const page = await signedInZone(viewport);
    const equipment = site.lists.find((l) => l.name === 'Equipment')!;
    const valves = site.lists.find((l) => l.name === 'Valves')!;

    // The view fills its panel (the centre of the screen, or the top of a phone's).
    const geometry = await page.evaluate(() => {
      const canvas = document.querySelector('canvas.scene')!.getBoundingClientRect();
      const panel = document.querySelector('main .centre')!.getBoundingClientRect();
      // The account's notices (one line each beside the view, until dismissed: console-account.test.ts) stand above the workspace.
      const notices = [...document.querySelectorAll('section.banner.notice')].reduce((h, e) => h + e.getBoundingClientRect().height, 0);
      return { canvas: canvas.toJSON(), panel: panel.toJSON(), notices, innerWidth, innerHeight, scrollWidth: document.documentElement.scrollWidth };
    });
    for (const k of ['x', 'y', 'width', 'height'] as const) assert.ok(Math.abs(geometry.canvas[k] - geometry.panel[k]) <= 1, `canvas ${k}: ${JSON.stringify(geometry)}`);
    if (viewport.width > 760) {
      // Beside the side panel, from under the header to the window's bottom edge.
      assert.ok(geometry.canvas.width >= viewport.width - 420, JSON.stringify(geometry));
      assert.ok(Math.abs(geometry.canvas.y + geometry.canvas.height - viewport.height) <= 1, JSON.stringify(geometry));
      // (1 px for the sub-pixel heights of the banners' text, as the other checks allow.)
      assert.ok(geometry.canvas.height >= viewport.height - 160 - geometry.notices - 1, JSON.stringify(geometry));
    } else {
      assert.equal(Math.round(geometry.canvas.width), viewport.width);
      assert.ok(geometry.canvas.height >= viewport.height * 0.5, JSON.stringify(geometry));
    }
    assert.ok(geometry.scrollWidth <= viewport.width, `no sideways scrolling: ${geometry.scrollWidth}`);
    await assertNoSeriousAxeViolations(page, `zone at ${size}`);

    // Layout shift from here on: every entry, also those right after an input (which the
    // CLS metric leaves out), and where the panels are before and after.
    await page.evaluate(() => {
      (globalThis as any).__shift = 0;
      (globalThis as any).__shifted = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as any[]) {
          (globalThis as any).__shift += e.value;
          // What moved, from where to where: the failure names it.
          // (No named helper in here: the test's compiler would wrap it in a function the page lacks.)
          for (const src of e.sources ?? []) {
            const n = src.node as Element | null;
            const name = n?.tagName ? `${n.tagName.toLowerCase()}.${String(n.className).split(' ').join('.')}` : String(n?.nodeName);
            (globalThis as any).__shifted.push(`${name} ${JSON.stringify(src.previousRect)} → ${JSON.stringify(src.currentRect)} (${e.value.toFixed(3)})`);
          }
        }
      }).observe({ type: 'layout-shift' });
    });
    const places = () =>
      page.evaluate(() =>
        ['canvas.scene', '.side.left', '.tabs', '.workspace-head', '.scene-tools'].map((s) => {
          const r = document.querySelector(s)!.getBoundingClientRect();
          // In the document's coordinates: a scroll is not a shift.
          return `${s} ${Math.round(r.x + scrollX)},${Math.round(r.y + scrollY)} ${Math.round(r.width)}×${Math.round(r.height)}`;
        }),
      );
    const before = await places();
    // The scene follows the list's selection on its next frame (the list's state and the
    // view's are synced by an effect): read until it does, for a few seconds at most.
    const settled = async <T,>(read: () => Promise<T>, expected: T) => {
      let seen = await read();
      for (let waited = 0; !util.isDeepStrictEqual(seen, expected) && waited < 5000; waited += 50) {
        await page.waitForTimeout(50);
        seen = await read();
      }
      return seen;
    };
    const settledColour = (layerId: string, key: string, expected: string) => settled(() => highlighted(page, layerId, key), expected);

    // The list → the scene: Day tank (T-201, the third of Equipment) is marked.
    const dayTank = page.getByRole('button', { name: /^Day tank/ });
    await dayTank.click();
    await page.locator('[data-testid=selection] .selection-name').filter({ hasText: 'Day tank' }).waitFor();
    const dayTankSelected = { layerId: `tags:${equipment.id}`, key: '2' };
    assert.deepEqual(await settled(() => selectionOf(page), dayTankSelected), dayTankSelected);
    assert.equal(await settledColour(`tags:${equipment.id}`, '2', 'ffb000'), 'ffb000');
    assert.equal(await dayTank.getAttribute('aria-pressed'), 'true');
    const pixels = await paintedPixels(page);
    assert.ok(pixels.highlight > 50, `the selected box is drawn in the highlight colour: ${JSON.stringify(pixels)}`);

    // The scene → the list: a click on the isolation valve's box selects it in its list.
    await page.evaluate(() => scrollTo(0, 0));
    const valve = await page.evaluate((id) => (globalThis as any).__scanbaseZoneView.screenPointOf(`tags:${id}`, '0'), valves.id);
    assert.ok(valve, 'the valve is on screen');
    await page.mouse.click(valve.x, valve.y);
    await page.locator('[data-testid=selection] .selection-name').filter({ hasText: 'Isolation valve' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Isolation valve/ }).getAttribute('aria-pressed'), 'true');
    assert.equal(await dayTank.getAttribute('aria-pressed'), 'false');
    const listColour = (await highlighted(page, `tags:${equipment.id}`, '1'))!;
    assert.equal(await settledColour(`tags:${equipment.id}`, '2', listColour), listColour, 'the day tank is back in its list colour');
    assert.equal(await settledColour(`tags:${valves.id}`, '0', 'ffb000'), 'ffb000');
    // A label names what is under the pointer.
    await page.mouse.move(valve.x + 1, valve.y + 1);
    await page.locator('.scene-label').filter({ hasText: 'Isolation valve (V-301)' }).waitFor();
    await assertNoSeriousAxeViolations(page, `zone with a selection at ${size}`);
    // The viewport alone: a whole-page capture resizes the window, itself a layout shift.
    await screenshot(page, `product-zone-selected-${viewport.width}`, { viewportOnly: true });

    // Clearing the selection; then measured: nothing moved.
    await page.getByRole('button', { name: 'Clear the selection' }).click();
    await page.locator('[data-testid=selection]').waitFor({ state: 'detached' });
    const shift = await page.evaluate(() => ({ value: (globalThis as any).__shift as number, sources: (globalThis as any).__shifted as string[] }));
    assert.ok(shift.value < 0.001, `layout shift during selection: ${shift.value}: ${shift.sources.join('; ')}`);
    assert.deepEqual(await places(), before);
    done = true;
  });
}

test('the design: human category names, breadcrumbs with the account, project cards with counts and last activity, sizes and dates on one line, dark mode', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('product-design');
  });
  const page = await signedInZone(DESKTOP, 'files');
  await page.getByRole('heading', { name: 'Scans', level: 3 }).waitFor();
  await page.getByRole('heading', { name: 'Documents', level: 3 }).waitFor();
  assert.equal(await page.getByRole('heading', { name: /^(scan|document|miscfile)$/, level: 3 }).count(), 0, 'no raw category id');
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  assert.deepEqual(await crumbs.getByRole('listitem').allTextContents(), ['Accounts', 'Console Inc', 'Refinery north', 'Pump house']);
  // Sizes and dates never wrap: one line each, however narrow the panel.
  const lines = await page.evaluate(() =>
    [...document.querySelectorAll('.file-name .meta')].map((e) => {
      const s = getComputedStyle(e);
      return { nowrap: s.whiteSpace === 'nowrap', lines: Math.round(e.getBoundingClientRect().height / parseFloat(s.lineHeight)) };
    }),
  );
  assert.ok(lines.length >= 2, JSON.stringify(lines));
  for (const l of lines) assert.deepEqual(l, { nowrap: true, lines: 1 });
  // Icon buttons carry accessible names (the file's name in them), no repeated long labels.
  await page.getByRole('button', { name: 'Download pump-house.las', exact: true }).waitFor();
  await assertNoSeriousAxeViolations(page, 'files');

  // The project cards: counts and last activity.
  await crumbs.getByRole('link', { name: 'Console Inc' }).click();
  const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Refinery north' }) });
  await card.getByText('1 scans · 5 tags · 3 zones').waitFor();
  await card.getByText(/^Last activity /).waitFor();
  await assertNoSeriousAxeViolations(page, 'projects');

  // Dark mode follows the system, and the console's theme button.
  // (Reduced motion: Pico's colour transitions off, so axe reads the final colours.)
  await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
  await page.waitForFunction(() => document.documentElement.getAttribute('data-theme') === 'dark');
  const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  assert.match(bg, /^rgb\((\d{1,2}), (\d{1,2}), (\d{1,2})\)$/, `a dark background: ${bg}`);
  await assertNoSeriousAxeViolations(page, 'projects, dark');
  await page.goto(`${server.url}${site.zonePath('tags')}`);
  await zoneDrawn(page);
  await assertNoSeriousAxeViolations(page, 'zone, dark');
  await page.getByRole('button', { name: /^Theme: as the system/ }).click();
  await page.waitForFunction(() => document.documentElement.getAttribute('data-theme') === 'light');
  await page.reload();
  await page.waitForFunction(() => document.documentElement.getAttribute('data-theme') === 'light');
  done = true;
});

test('errors and loading: an unreachable service shows a banner and an error with Try again (never with a spinner); both recover', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('product-errors');
  });
  const page = await newPage(DESKTOP);
  await page.goto(`${server.url}/console/`);
  await signInThroughConsole(page, DEMO_OWNER, /\/console\/$/);
  await page.getByRole('link', { name: 'Console Inc' }).waitFor();
  // The service goes away (every call fails at the network).
  await page.route(/\/(api|livez)/, (r) => r.abort('connectionrefused'));
  await page.getByRole('link', { name: 'Console Inc' }).click();
  const banner = page.locator('.banner.offline[role=alert]');
  await banner.waitFor();
  const error = page.locator('main .error').first();
  await error.waitFor();
  assert.equal(await page.locator('main [aria-busy=true]').count(), 0, 'no spinner beside the error');
  await assertNoSeriousAxeViolations(page, 'unreachable');
  // "Try now" while the service is still away: it asks again, and the banner stays.
  const tryNow = banner.getByRole('button', { name: 'Try now' });
  const probed = page.waitForRequest((r) => new URL(r.url()).pathname === '/livez');
  await tryNow.click();
  await probed;
  assert.equal(await banner.count(), 1, 'still unreachable: the banner stays');
  // Back: "Try now" clears the banner, "Try again" loads the screen. The banner also asks by
  // itself every 5 s (console/src/connection.ts): on a loaded machine its own probe may have
  // answered before the click, so the click is made only while the button is there.
  await page.unroute(/\/(api|livez)/);
  if (await tryNow.isVisible()) await tryNow.click({ timeout: 5_000 }).catch((e: unknown) => assert.equal(e instanceof Error && e.name, 'TimeoutError', 'the banner went by itself'));
  await banner.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Try again' }).first().click();
  await page.getByRole('link', { name: 'Refinery north' }).waitFor();
  assert.equal(await page.locator('main .error').count(), 0);
  done = true;
});

test('issue 26 item 9: a crafted address is refused before any request (a zone, a job or a project that is not an id); nothing reaches another project', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('product-paths');
  });
  // Another project of the account: the target of the crafted link.
  const other = await apiAs(server, DEMO_OWNER.email, 'GET', `/api/2/accounts/${site.accountId}/projects`);
  const target = other.find((p: { name: string }) => p.name === 'Tank farm survey');
  const targetId = target.id.slice(target.id.lastIndexOf(':') + 1);
  const targetZone = target.rootWorkzoneId.slice(target.rootWorkzoneId.lastIndexOf(':') + 1);
  const page = await newPage(DESKTOP);
  const requests = recordRequests(page);
  const project = `/console/a/${site.accountId}/p/${site.projectId}`;
  await page.goto(`${server.url}${project}?tab=files`);
  await signInThroughConsole(page, DEMO_OWNER, /tab=files$/);
  await page.getByRole('tree', { name: 'Work zones' }).waitFor();
  for (const address of [
    `${project}?zone=${encodeURIComponent(`../../../projects/${targetId}/workzones/${targetZone}`)}&tab=files`,
    `${project}?zone=${targetZone}%2F..%2F..&tab=files`,
    `${project}?zone=${site.zoneId}&tab=copy&job=${encodeURIComponent(`../../../../${targetId}`)}`,
    `${project}?zone=${site.zoneId}&tab=connect&job=..`,
    `/console/a/${site.accountId}/p/${encodeURIComponent(`${site.projectId}/../${targetId}`)}`,
  ]) {
    // The page before (a project's, whose view polls a scan's conversion and streams its
    // COPC) is left for a blank one first, so that its last calls are not counted as this address's.
    await page.goto('about:blank');
    requests.length = 0;
    await page.goto(`${server.url}${address}`);
    await page.getByRole('heading', { name: 'Not a valid address' }).waitFor();
    // Only the session's own calls (and the account menu's, /api/2/me/*, which take nothing
    // from the address): nothing else of the API, above all nothing of the other project.
    const api = requests.map((r) => new URL(r.url()).pathname).filter((p) => p.startsWith('/api') && !p.startsWith('/api/2/me/'));
    assert.deepEqual(api, [], `${address}: ${api.join(', ')}`);
  }
  // The addresses themselves name it; no call made from them does.
  assert.equal(requests.filter((r) => r.resourceType() !== 'document' && r.url().includes(targetId)).length, 0);
  done = true;
});

test('issue 26 item 10: with a separate blob origin, a scan dropped on the zone is uploaded there and drawn from it (or from the COPC the service made of it)', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('product-blob-origin');
  });
  const page = await signedInZone(DESKTOP, 'files');
  const requests = recordRequests(page);
  const blobOrigin = server.url.replace('127.0.0.1', 'localhost');
  const points: [number, number, number][] = [];
  for (let i = 0; i < 30; i++) for (let j = 0; j < 20; j++) points.push([500_010 + i * 0.2, 5_000_000 + j * 0.2, 9.5]);
  const bytes = [...lasFile(points)];
  const dropped = await page.evaluateHandle((b) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(b)], 'annex.las', { type: 'application/octet-stream' }));
    return dt;
  }, bytes);
  await page.dispatchEvent('[data-testid=drop-zone]', 'dragover', { dataTransfer: dropped });
  await page.dispatchEvent('[data-testid=drop-zone]', 'drop', { dataTransfer: dropped });
  await page.getByRole('button', { name: 'annex.las', exact: true }).waitFor({ timeout: 30_000 });
  const put = requests.find((r) => r.method() === 'PUT' && r.url().includes('/_blobs/'));
  assert.ok(put, 'the bytes were PUT to a signed URL');
  assert.equal(new URL(put.url()).origin, blobOrigin);
  assert.equal((await put.response())?.status(), 201);
  // Drawn from the blob origin: the view streams it by ranges (206 from the other origin).
  requests.length = 0;
  await page.getByRole('button', { name: 'Show annex.las in 3D' }).click();
  await page.waitForFunction((n) => Number(document.querySelector('canvas.scene')!.getAttribute('data-points')) >= n, 2400 + points.length, { timeout: 30_000 });
  // Its bytes come by ranges from the blob origin (the preview); or, when the service's
  // conversion ended first (a 600-point scan converts in a moment), the COPC made from them
  // comes by ranges from the service's own route; the uploaded bytes never from the app's origin.
  const ranged = requests.filter((r) => r.method() === 'GET' && r.url().startsWith(`${blobOrigin}/_blobs/`));
  const copc = requests.filter((r) => r.method() === 'GET' && new URL(r.url()).pathname.endsWith('/point-cloud/copc'));
  assert.ok(ranged.length + copc.length >= 2, `ranged reads: ${ranged.length} of the blob, ${copc.length} of its COPC`);
  for (const r of ranged) assert.equal((await r.response())?.status(), 206);
  for (const r of copc) {
    assert.equal(new URL(r.url()).origin, new URL(server.url).origin);
    assert.equal((await r.response())?.status(), 206);
  }
  assert.equal(requests.filter((r) => r.url().startsWith(`${new URL(server.url).origin}/_blobs/`)).length, 0, 'no blob read from the app origin');
  done = true;
});
