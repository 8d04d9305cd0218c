// Helpers of the web console's browser tests: sign in through the console's own button,
// run axe-core in the page, save screenshots as test artifacts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** Where the browser tests keep their screenshots (CI can collect the folder). */
export const ARTIFACTS = path.resolve('.tmp/artifacts/console');

export async function screenshot(page: Page, name: string, target?: { selector: string }): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  if (target) await page.locator(target.selector).screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Presses the console's Sign in, signs in on the authorize page when asked, allows, and
 * waits until the console shows `path` again. Answers the authorize address the console used.
 */
export async function signInThroughConsole(page: Page, user: { email: string; password: string }, backTo: RegExp): Promise<URL> {
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/oauth\/authorize\?/);
  const authorizeUrl = new URL(page.url());
  if (await page.locator('#email').count()) {
    await page.fill('#email', user.email);
    await page.fill('#password', user.password);
    await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')]);
  }
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL(backTo, { timeout: 20_000 });
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 20_000 });
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
