// npm run console:screenshots: the console's main screens as docs/console.md shows them,
// taken from a fresh service with the demo site (test/support/console-demo.ts) in headless
// Chromium (SwiftShader WebGL), at 1280 × 800 (and one at phone width, one in dark mode;
// the account's mail notice on the projects, "Your account" with an invitation waiting),
// written to docs/console/*.png. Each file must stay under 300 kB (checked here).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { apiAs, consoleWorld, signInThroughConsole } from '../test/support/console.ts';
import { DEMO_OWNER, demoSite } from '../test/support/console-demo.ts';

const OUT = path.resolve('docs/console');
const MAX_BYTES = 300 * 1024;

async function shot(page: Page, name: string): Promise<void> {
  // Let the view draw its last frame and the toasts go.
  await page.waitForTimeout(600);
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  const size = fs.statSync(file).size;
  console.log(`console:screenshots: ${path.relative(process.cwd(), file)} (${Math.round(size / 1024)} kB)`);
  if (size > MAX_BYTES) throw new Error(`${name}.png is ${Math.round(size / 1024)} kB: over the 300 kB the docs allow`);
}

async function main(): Promise<void> {
  fs.mkdirSync(OUT, { recursive: true });
  const world = consoleWorld();
  try {
    const server = await world.start({ env: { SANDBOX: '0' } });
    const site = await demoSite(server);
    // Another account invites the demo's owner: "Your account" shows the invitation.
    const partner = { email: 'paul@partners.test', password: 'paul-password-1' };
    await server.seed({
      users: [{ ...partner, firstName: 'Paul', lastName: 'Partner' }],
      accounts: [{ name: 'Survey Partners', owner: partner.email, subscriptions: [{ name: 'Partners', isActive: true }] }],
    });
    const [partnerAccount] = await apiAs(server, partner.email, 'GET', '/api/2/accounts');
    const partnerId = String(partnerAccount.id).slice(String(partnerAccount.id).lastIndexOf(':') + 1);
    await apiAs(server, partner.email, 'POST', `/api/2/accounts/${partnerId}/users/bulk-invite`, [{ email: DEMO_OWNER.email, roles: ['projectManager'] }]);
    const page = await world.newPage({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${server.url}/console/`);
    await signInThroughConsole(page, DEMO_OWNER, /\/console\/$/);
    await page.getByRole('link', { name: 'Console Inc' }).waitFor();
    await shot(page, 'accounts');

    await page.getByRole('link', { name: 'Console Inc' }).click();
    await page.getByRole('link', { name: 'Refinery north' }).waitFor();
    // A service without SMTP_URL: the account's notice says so (then dismissed for the next pictures).
    await page.getByRole('region', { name: 'Notice: E-mail is off' }).waitFor();
    await shot(page, 'projects');

    // Your account: the invitation waiting, sign out everywhere.
    await page.getByRole('button', { name: /^Your account/ }).click();
    await page.getByRole('link', { name: /^Your account/ }).click();
    await page.getByRole('listitem').filter({ hasText: '“Survey Partners”' }).waitFor();
    await shot(page, 'account');
    await page.goto(`${server.url}/console/a/${site.accountId}`);
    await page.getByRole('button', { name: /^Dismiss the notice/ }).click();

    // The zone: its scan and tag lists in the 3D view, a tag selected from its list.
    await page.goto(`${server.url}${site.zonePath('tags')}`);
    await page.locator('canvas.scene[data-drawn="5"]').waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => (globalThis as { __scanbasePreview?: { done: boolean } }).__scanbasePreview?.done === true, undefined, { timeout: 60_000 });
    await page.getByRole('button', { name: /Day tank/ }).click();
    await page.locator('[data-testid=selection]').waitFor();
    await shot(page, 'zone-3d');

    await page.getByRole('tab', { name: 'Files' }).click();
    await page.getByRole('button', { name: 'pump-house.las', exact: true }).waitFor();
    await shot(page, 'zone-files');

    await page.getByRole('tab', { name: 'Tag lists' }).click();
    await page.getByRole('link', { name: 'Equipment' }).click();
    await page.locator('canvas.scene[data-drawn="3"]').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'T-201', exact: true }).click();
    await shot(page, 'tag-list');

    // Dark mode, and the zone at phone width.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${server.url}${site.zonePath('tags')}`);
    await page.locator('canvas.scene[data-drawn="5"]').waitFor({ timeout: 60_000 });
    await shot(page, 'zone-3d-dark');
    const phone = await world.newPage({ width: 390, height: 844 });
    await phone.emulateMedia({ colorScheme: 'light' });
    await phone.goto(`${server.url}${site.zonePath('tags')}`);
    await signInThroughConsole(phone, DEMO_OWNER, /tab=tags$/);
    await phone.locator('canvas.scene[data-drawn="5"]').waitFor({ timeout: 60_000 });
    await shot(phone, 'zone-phone');
  } finally {
    await world.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
