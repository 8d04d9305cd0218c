// The console shows a point cloud's conversion to COPC in the files list (docs/point-clouds.md
// "The module"): a LAS dropped on a zone reads "COPC ready · <n> points" once the job is
// done; a .laz whose content is not LAZ reads "COPC failed: …" with the reason's message.
// @engine-independent (the console is a client of the API; the API's data path is tested in test/http)
import { test, before, after } from 'node:test';
import type { OAuthServer } from '../support/oauth-client.ts';
import { consoleWorld, lasFile, signInThroughConsole } from '../support/console.ts';
import { DEMO_OWNER, demoSite, type DemoSite } from '../support/console-demo.ts';

let server: OAuthServer;
let site: DemoSite;
const world = consoleWorld();
const { newPage, showPages } = world;

before(async () => {
  server = await world.start();
  site = await demoSite(server);
});
after(() => world.stop());

test('files list: a dropped LAS shows its conversion ending "COPC ready", a .laz that is a PLY "COPC failed" with why', async (t) => {
  let done = false;
  t.after(async () => {
    if (!done) await showPages('console-point-cloud');
  });
  const page = await newPage({ width: 1280, height: 800 });
  await page.goto(`${server.url}${site.zonePath('files')}`);
  await signInThroughConsole(page, DEMO_OWNER, /tab=files$/);
  const points: [number, number, number][] = [];
  for (let i = 0; i < 30; i++) for (let j = 0; j < 20; j++) points.push([500_010 + i * 0.2, 5_000_000 + j * 0.2, 9.5 + ((i * j) % 7) * 0.1]);
  const files = { las: [...lasFile(points)], bad: [...Buffer.from('ply\nformat ascii 1.0\nelement vertex 0\nend_header\n')] };
  const dropped = await page.evaluateHandle((f) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(f.las)], 'annex.las', { type: 'application/octet-stream' }));
    dt.items.add(new File([new Uint8Array(f.bad)], 'bogus.laz', { type: 'application/octet-stream' }));
    return dt;
  }, files);
  await page.locator('[data-testid=drop-zone]').waitFor({ timeout: 60_000 });
  await page.dispatchEvent('[data-testid=drop-zone]', 'dragover', { dataTransfer: dropped });
  await page.dispatchEvent('[data-testid=drop-zone]', 'drop', { dataTransfer: dropped });
  const row = (name: string) => page.locator('tr', { has: page.getByRole('button', { name, exact: true }) });
  // The node converts one scan at a time, the demo site's own first: on a loaded machine (CI
  // beside the COPC viewer's 2 M-point conversion) the two dropped here can wait minutes.
  await row('annex.las').getByRole('status').filter({ hasText: `COPC ready · ${points.length} points` }).waitFor({ timeout: 240_000 });
  await row('bogus.laz').getByRole('status').filter({ hasText: 'COPC failed: bogus.laz is not a LAZ file: its content looks like a PLY file' }).waitFor({ timeout: 240_000 });
  done = true;
});
