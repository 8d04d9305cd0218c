// What the password sign-in forms do about single sign-on (docs/identity.md "Signing in"):
// "Use single sign-on" offers "Continue with <IdP>" when the e-mail's domain has one,
// and a domain that requires SSO has its password refused (before it is checked) with a
// message naming its IdP. null: no SSO matter, the password sign-in goes on.
import type { SsoSignIn } from './sso-sign-in.ts';
import { domainOfEmail } from './rules.ts';

export interface SsoStep {
  status: number;
  error?: string;
  /** Offer "Continue with <displayName>". */
  offer?: { displayName: string };
  /** Origins the page's forms may be redirected to (the IdP's). */
  formTargets: string[];
}

export async function ssoStep(core: { ssoSignIn: Pick<SsoSignIn, 'routeFor'> }, email: string, form: { asked: boolean; password: boolean }): Promise<SsoStep | null> {
  const route = email ? await core.ssoSignIn.routeFor(email) : null;
  if (form.asked) {
    if (route) return { status: 200, offer: { displayName: route.displayName }, formTargets: [route.issuerOrigin] };
    const domain = domainOfEmail(email);
    return {
      status: 400, formTargets: [],
      error: domain ? `No single sign-on is set up for ${domain}. Sign in with your password.` : 'Enter your work e-mail address to sign in with single sign-on.',
    };
  }
  if (route?.requireSso) return { status: 403, error: requiredMessage(route), offer: { displayName: route.displayName }, formTargets: [route.issuerOrigin] };
  return null;
}

/** The refusal of a password for a domain that requires single sign-on. */
export const requiredMessage = (route: { domain: string; displayName: string }) =>
  `Users of ${route.domain} sign in with ${route.displayName}, not with a password: use "Continue with ${route.displayName}".`;
