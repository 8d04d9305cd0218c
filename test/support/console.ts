// Helpers of the web console's browser tests: sign in through the console's own button,
// run axe-core in the page, save screenshots as test artifacts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startOAuthServer, type OAuthServer, type OAuthServerOptions } from './oauth-client.ts';
import { closeBrowser, launchWebGLBrowser } from './browser.ts';

/** Where the browser tests keep their screenshots (CI can collect the folder). */
export const ARTIFACTS = path.resolve('.tmp/artifacts/console');

/**
 * Saves a screenshot: of one element (`selector`), of the whole page (the default), or of
 * the viewport alone (`viewportOnly`). A whole-page screenshot of a page taller than its
 * window resizes the viewport for the capture, which lays out a layout in dvh units again
 * and is recorded as a layout shift (0.27 a shot at 390 × 844, measured): a test that
 * measures layout shift takes the viewport alone inside its window.
 */
export async function screenshot(page: Page, name: string, target?: { selector: string } | { viewportOnly: true }): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  if (target && 'selector' in target) await page.locator(target.selector).screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: !target });
  return file;
}

/**
 * Signs the console in: presses its Sign in, signs in on the authorize page when asked
 * (the console is a first-party client: no approval page), and waits until the console
 * shows `backTo` again. A browser that still has the console's session (its cookie) is
 * signed in already on load: then nothing is pressed. Answers the authorize address the
 * console used (null when it was already signed in).
 */
export async function signInThroughConsole(page: Page, user: { email: string; password: string }, backTo: RegExp): Promise<URL | null> {
  const signIn = page.getByRole('button', { name: 'Sign in' });
  const signOut = page.getByRole('button', { name: 'Sign out', exact: true });
  await signIn.or(signOut).first().waitFor({ timeout: 30_000 });
  if (await signOut.isVisible()) {
    await page.waitForURL(backTo, { timeout: 20_000 });
    return null;
  }
  const [authorize] = await Promise.all([page.waitForRequest(/\/oauth\/authorize\?/), signIn.click()]);
  const authorizeUrl = new URL(authorize.url());
  const form = page.locator('#email');
  // Either the sign-in form, or (a browser already signed in on the authorize pages) straight back.
  await Promise.race([form.waitFor({ timeout: 20_000 }), page.waitForURL(backTo, { timeout: 20_000 })]);
  if (!backTo.test(page.url()) && (await form.count())) {
    await page.fill('#email', user.email);
    await page.fill('#password', user.password);
    await page.click('button[type=submit]');
  }
  await page.waitForURL(backTo, { timeout: 20_000 });
  await signOut.waitFor({ timeout: 20_000 });
  return authorizeUrl;
}

const axeSource: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** axe-core in the page (evaluated over the DevTools protocol: the page's CSP stays on); fails on serious or critical violations. */
export async function assertNoSeriousAxeViolations(page: Page, screen: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: unknown) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], `axe on ${screen}: ${JSON.stringify(serious, null, 1)}`);
}

/**
 * A LAS 1.2 file of point format 0 (20-byte records, no colour) holding `points`, with
 * 1 cm resolution around the first point (the header's scale and offsets).
 */
export function lasFile(points: readonly (readonly [number, number, number])[]): Buffer {
  return lasFileOf(points.length, (i) => points[i]!);
}

/** A LAS 1.2 file of `count` points (format 0, 20-byte records) made by `pointAt`, without an array of them: large scans for the streamed preview. */
export function lasFileOf(count: number, pointAt: (i: number) => readonly [number, number, number]): Buffer {
  const HEADER = 227;
  const buf = Buffer.alloc(HEADER + count * 20);
  buf.write('LASF', 0, 'ascii');
  buf.writeUInt8(1, 24);
  buf.writeUInt8(2, 25);
  buf.write('scanbase console test', 58, 'ascii');
  buf.writeUInt16LE(HEADER, 94);
  buf.writeUInt32LE(HEADER, 96);
  buf.writeUInt8(0, 104);
  buf.writeUInt16LE(20, 105);
  buf.writeUInt32LE(count, 107);
  buf.writeUInt32LE(count, 111);
  const scale = 0.01;
  const offset = count ? pointAt(0) : [0, 0, 0];
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    const p = pointAt(i);
    const at = HEADER + i * 20;
    for (let a = 0; a < 3; a++) {
      buf.writeInt32LE(Math.round((p[a]! - offset[a]!) / scale), at + a * 4);
      min[a] = Math.min(min[a]!, p[a]!);
      max[a] = Math.max(max[a]!, p[a]!);
    }
    buf.writeUInt16LE(100, at + 12);
    buf.writeUInt8(1 | (1 << 3), at + 14); // return 1 of 1
    buf.writeUInt8(2, at + 15); // ground
  }
  for (let a = 0; a < 3; a++) {
    buf.writeDoubleLE(scale, 131 + a * 8);
    buf.writeDoubleLE(offset[a]!, 155 + a * 8);
    buf.writeDoubleLE(count ? max[a]! : 0, 179 + a * 16);
    buf.writeDoubleLE(count ? min[a]! : 0, 187 + a * 16);
  }
  return buf;
}

/** An API call as a seeded user, with a token from the operator API; fails the test on an error status. */
export async function apiAs(server: OAuthServer, email: string, method: string, path: string, body?: unknown): Promise<any> {
  const { access_token } = await server.operator<{ access_token: string }>('POST', '/tokens', { email });
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${access_token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * The pages of one test file: each in its own browser context (its own cookies), page
 * errors printed, and on a failure what each page showed (text and a screenshot).
 */
export function consolePages(browser: () => Browser) {
  const contexts: BrowserContext[] = [];
  const pages: Page[] = [];
  return {
    async newPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
      const context = await browser().newContext({ viewport });
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error('page error:', e));
      pages.push(page);
      return page;
    },
    async showPages(name: string): Promise<void> {
      for (const [i, p] of pages.entries()) {
        if (p.isClosed()) continue;
        console.error(`--- page ${i} at ${p.url()}:\n${await p.locator('body').innerText().catch((e: unknown) => String(e))}`);
        await screenshot(p, `failure-${name}-${i}`);
      }
    },
    async closeAll(): Promise<void> {
      for (const c of contexts) await c.close();
    },
  };
}

/**
 * A console test file's world: the service (with its OAuth client) and a WebGL browser,
 * started at once, the file's pages (consolePages), and stop() closing whatever started,
 * also after a failed start.
 */
export function consoleWorld() {
  let server: OAuthServer | undefined;
  let browser: Browser | undefined;
  const pages = consolePages(() => {
    if (!browser) throw new Error('consoleWorld: the browser did not start');
    return browser;
  });
  return {
    ...pages,
    /** Starts both; throws the first failure once both have settled. */
    async start(opts: OAuthServerOptions = {}): Promise<OAuthServer> {
      const [s, b] = await Promise.allSettled([startOAuthServer(opts), launchWebGLBrowser()]);
      if (s.status === 'fulfilled') server = s.value;
      if (b.status === 'fulfilled') browser = b.value;
      for (const r of [s, b]) if (r.status === 'rejected') throw r.reason;
      return server!;
    },
    async stop(): Promise<void> {
      await pages.closeAll();
      await closeBrowser(browser);
      await server?.stop();
    },
  };
}

/**
 * How many pixels of the 3D view differ from its background (what is drawn: boxes, points)
 * and how many are in the selection's colour, rendered once without the grid and axes; the
 * background is the view's most common colour.
 */
export const paintedPixels = (page: Page) =>
  page.evaluate(() => {
    const g = globalThis as any;
    const view = g.__scanbaseBoxScene?.scene ?? g.__scanbaseZoneView;
    view.setHelpersVisible(false);
    view.renderNow();
    const c = document.querySelector('canvas.scene') as HTMLCanvasElement;
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(c, 0, 0);
    view.setHelpersVisible(true);
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    const counts = new Map<number, number>();
    for (let i = 0; i < px.length; i += 4) {
      const k = (px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const bg = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const [br, bgr, bb] = [bg >> 16, (bg >> 8) & 255, bg & 255];
    let boxes = 0;
    let highlight = 0;
    for (let i = 0; i < px.length; i += 4) {
      const [r, gr, b] = [px[i]!, px[i + 1]!, px[i + 2]!];
      if (Math.abs(r - br) + Math.abs(gr - bgr) + Math.abs(b - bb) > 60) boxes++;
      // The selection's amber (#ffb000, lit): red high, green lower, blue low.
      if (r > 150 && gr > 90 && gr < r && b < 60 && r - b > 120) highlight++;
    }
    return { boxes, highlight, total: px.length / 4 };
  });
