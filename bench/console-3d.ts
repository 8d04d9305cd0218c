// `npm run bench:console`: the web console's 3D view of a 50,000-tag list in headless
// Chromium (WebGL on SwiftShader, the CPU: a machine with a GPU does better), against a
// started server. In one run it reports the time the page took to fetch the list, the time
// from the tags' arrival to the first rendered frame of all boxes, the whole time from the
// page's start to that frame, and frames per second while orbiting the camera
// (every frame renders all 50,000 boxes: one instanced draw). "Page start" is the load of
// the page the sign-in returns to: bundles, token exchange, the list's fetch and the first
// frame. Written to
// bench/results/console-3d.json. BENCH_CONSOLE_TAGS changes the size, BENCH_ORBIT_SECONDS the orbit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, BENCH_USER, ROOT } from './servers.ts';
import { launchWebGLBrowser } from '../test/support/browser.ts';
import { signInThroughConsole } from '../test/support/console.ts';

const TAGS = Number(process.env.BENCH_CONSOLE_TAGS ?? 50_000);
const BULK = 10_000;
const ORBIT_SECONDS = Number(process.env.BENCH_ORBIT_SECONDS ?? 5);
const CLASSES = ['valve', 'pump', 'pipe', 'tank', 'beam'];

/** Tags on a 250 × 200 grid, one in two oriented (turned about Z), five classes. */
const tagData = (i: number) => {
  const x = (i % 250) * 1.5;
  const y = Math.floor(i / 250) * 1.5;
  const base = { id: `T-${i}`, name: `Tag ${i}`, class: CLASSES[i % CLASSES.length] };
  if (i % 2) return { ...base, boundingBox: [x, y, 0, x + 0.8, y + 0.6, 0.5 + (i % 7) * 0.2] };
  const a = ((i % 12) * Math.PI) / 12;
  return { ...base, orientedBoundingBox: [x, y, 1, 0, 0, Math.sin(a / 2), Math.cos(a / 2), 1, 0.4, 0.4] };
};

/**
 * Runs in the page (as source text: the bench runs through tsx, whose helpers do not
 * exist in the page). Each animation frame turns the camera 1° about the target and renders
 * every box; the figure is frames per second (Chromium draws in its GPU process, so the
 * render call's own time says little).
 */
const ORBIT = `async (seconds) => {
  const { scene } = globalThis.__scanbaseBoxScene;
  const cam = scene.camera;
  const target = scene.controls.target;
  const dx0 = cam.position.x - target.x;
  const dy0 = cam.position.y - target.y;
  const start = performance.now();
  let k = 0;
  await new Promise((resolve) => {
    function step() {
      const a = (++k * Math.PI) / 180;
      cam.position.x = target.x + dx0 * Math.cos(a) - dy0 * Math.sin(a);
      cam.position.y = target.y + dx0 * Math.sin(a) + dy0 * Math.cos(a);
      cam.lookAt(target);
      scene.renderNow();
      if (performance.now() - start < seconds * 1000) requestAnimationFrame(step);
      else resolve();
    }
    requestAnimationFrame(step);
  });
  return { frames: k, seconds: (performance.now() - start) / 1000 };
}`;

async function call(url: string, token: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(`${url}${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

async function main(): Promise<void> {
  console.log(`bench: console 3D view of ${TAGS} tags: starting a server`);
  const server = await startServer['scanbase-pglite']();
  const browser = await launchWebGLBrowser();
  try {
    const account = server.seeded.accounts[0]!;
    await server.operator('POST', '/seed', { accounts: [{ name: account.name, owner: BENCH_USER.email, projectManagers: [BENCH_USER.email] }] });
    const token = await server.accessTokenFor(BENCH_USER.email);
    const A = `/api/2/accounts/${account.id}`;
    const subs = (await call(server.url, token, 'GET', `${A}/subscriptions`)) as { id: string }[];
    const project = await call(server.url, token, 'POST', `${A}/projects`, { name: 'Console bench', subscriptionId: subs[0]!.id });
    const L = `${A}/projects/${project.id}/tag-lists`;
    const list = await call(server.url, token, 'POST', L, { workzoneId: project.rootWorkzoneId, tagListType: '3d', name: 'Bench boxes' });
    for (let k = 0; k * BULK < TAGS; k++) {
      const n = Math.min(BULK, TAGS - k * BULK);
      await call(server.url, token, 'POST', `${L}/${list.id}/tags/bulk`, { create: Array.from({ length: n }, (_, i) => ({ data: tagData(k * BULK + i) })) });
    }
    const uuid = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);
    const address = `${server.url}/console/a/${uuid(account.id)}/p/${uuid(project.id)}/t/${uuid(list.id)}`;

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(address);
    await signInThroughConsole(page, BENCH_USER, new RegExp(`/t/${uuid(list.id)}$`));
    // Once more from a reload (the session is kept in the console's cookie: no sign-in; the
    // browser has the bundles cached, as on a person's second visit).
    const t0 = Date.now();
    await page.reload();
    await signInThroughConsole(page, BENCH_USER, new RegExp(`/t/${uuid(list.id)}$`));
    const signedIn = Date.now();
    await page.locator(`canvas.scene[data-drawn="${TAGS}"]`).waitFor({ timeout: 300_000 });
    const timings = (await page.evaluate('globalThis.__scanbaseBoxScene.timings')) as {
      fetchMs: number;
      firstRenderMs: number;
      sincePageStartMs: number;
      drawn: number;
    };

    const frames = (await page.evaluate(`(${ORBIT})(${ORBIT_SECONDS})`)) as { frames: number; seconds: number };

    const result = {
      tags: TAGS,
      drawn: timings.drawn,
      fetchListMs: Math.round(timings.fetchMs),
      firstRenderMs: Math.round(timings.firstRenderMs),
      pageStartToFirstFrameMs: Math.round(timings.sincePageStartMs),
      signInMs: signedIn - t0,
      orbitFps: Math.round((frames.frames / frames.seconds) * 10) / 10,
      renderer: 'SwiftShader (CPU WebGL) in headless Chromium',
      // Other work on the machine shares the CPU the renderer draws with.
      loadAverage: os.loadavg()[0]!.toFixed(1),
      cpus: os.cpus().length,
    };
    console.log('\nconsole 3D view');
    console.table([result]);
    const out = path.join(ROOT, 'bench/results/console-3d.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), ...result }, null, 2) + '\n');
    console.log(`written to ${path.relative(ROOT, out)}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
