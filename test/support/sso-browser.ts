// What the single sign-on browser tests (OIDC and SAML) share: an account's provider set
// up through the API with a domain verified as the operator would (and its mapping rules,
// and "require SSO"), browser pages each in a context of its own, the authorize page of a
// PKCE client, and the sign-in page's "Continue with <IdP>".
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestApp } from './app.ts';
import { authorizePath, pkcePair, randomState } from './oauth-client.ts';
import { caller } from './projects.ts';
import { confirmSsoDomain } from '../../src/modules/sso/core/index.ts';

/** Sets the account's provider, claims and verifies the domain, adds the rules; answers the owner's caller. */
export async function configureSso(
  t: TestApp, accountId: string, ownerEmail: string, domain: string, provider: Record<string, unknown>, rules: Record<string, unknown>[] = [], requireSso = false,
) {
  const owner = caller(t, (await t.tokens(ownerEmail)).access_token);
  const A = `/api/2/accounts/${accountId}/sso`;
  const put = await owner('PUT', `${A}/provider`, provider);
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const claimed = await owner('POST', `${A}/domains`, { domain });
  assert.equal(claimed.status, 201, JSON.stringify(claimed.body));
  await confirmSsoDomain({ store: t.core.store, clock: t.core.clock }, domain, claimed.body.verificationToken);
  for (const r of rules) assert.equal((await owner('POST', `${A}/rules`, r)).status, 201);
  if (requireSso) assert.equal((await owner('PATCH', `${A}/domains/${domain}`, { requireSso: true })).status, 200);
  return owner;
}

/** Pages of one browser, each in a fresh context (no cookie shared), all closed by closeAll. */
export class FreshPages {
  private readonly contexts: BrowserContext[] = [];
  private readonly browser: () => Browser;
  constructor(browser: () => Browser) {
    this.browser = browser;
  }
  async page(): Promise<Page> {
    const context = await this.browser().newContext();
    this.contexts.push(context);
    context.setDefaultTimeout(15_000);
    return context.newPage();
  }
  async closeAll(): Promise<void> {
    await Promise.allSettled(this.contexts.map((c) => c.close()));
  }
}

/** Opens the authorize page of a PKCE client whose code is shown on "/" (the copy-the-code page). */
export async function openAuthorize(page: Page, base: string) {
  const { verifier, challenge } = pkcePair();
  const state = randomState();
  await page.goto(`${base}${authorizePath({ redirectUri: '/', state, codeChallenge: challenge })}`);
  return { verifier, state };
}

/** From the sign-in page: "Sign in with single sign-on" with the e-mail, then "Continue with <IdP>". */
export async function continueWithSso(page: Page, email: string, idpName: string) {
  await page.fill('#email', email);
  await page.click('#use-sso');
  const button = page.locator('#continue-sso');
  assert.equal((await button.textContent())?.trim(), `Continue with ${idpName}`);
  await button.click();
}
