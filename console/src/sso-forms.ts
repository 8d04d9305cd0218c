// The single sign-on screen's forms (screens/sso.tsx; docs/console.md "Single sign-on"), as
// pure rules the unit tests import without a browser: the provider's form ↔ the body of
// PUT …/sso/provider (the client secret is write-only: kept unless typed, or none for a
// public client), the scopes as typed, a mapping rule's form ↔ its body, which input a
// refusal of the service names (its `errorValues.field`), and the operator's command that
// verifies a domain. The service checks everything again; these only shape what is sent.
import type { SsoProvider, SsoProviderBody, SsoRule, SsoRuleBody } from './types.ts';

export type Protocol = 'oidc' | 'saml';

/** What to do with the stored client secret: keep it, replace it with the one typed, or have none (a public client, PKCE only). */
export type SecretChoice = 'keep' | 'replace' | 'none';

export interface ProviderForm {
  protocol: Protocol;
  displayName: string;
  issuer: string;
  clientId: string;
  secretChoice: SecretChoice;
  /** Typed by the administrator; never filled from the service (which never answers it). */
  clientSecret: string;
  scopes: string;
  enabled: boolean;
  /** SAML 2.0: the IdP's entity id, sign-on URL and signing certificate (the first, when several are stored). */
  samlEntityId: string;
  samlSsoUrl: string;
  samlCertificate: string;
}

/** The default scopes of the service, shown in an empty form (docs/identity.md). */
export const DEFAULT_SCOPES = 'openid email profile';

/** The form as the stored provider fills it (a new one: empty, a secret to type, enabled). */
export function providerFormOf(p: SsoProvider | null): ProviderForm {
  const saml = p?.protocol === 'saml' ? p.saml : null;
  return {
    protocol: p?.protocol ?? 'oidc',
    displayName: p?.displayName ?? '',
    // A SAML provider answers the IdP's entity id as its issuer and our SP entity id as its client id.
    issuer: saml ? '' : (p?.issuer ?? ''),
    clientId: saml ? '' : (p?.clientId ?? ''),
    secretChoice: p ? (p.hasClientSecret ? 'keep' : 'none') : 'replace',
    clientSecret: '',
    scopes: p ? p.scopes.join(' ') : DEFAULT_SCOPES,
    enabled: p?.enabled ?? true,
    samlEntityId: saml ? (p?.issuer ?? '') : '',
    samlSsoUrl: saml?.ssoUrl ?? '',
    samlCertificate: saml?.certificates[0]?.pem ?? '',
  };
}

/** Scopes as typed, separated by spaces or commas; each once, in the order typed. */
export function parseScopes(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** A refusal of the form found before sending: the message and the input it is about. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** A form read into the body to send, or the first thing to fix. */
export type Checked<T> = { body: T } | { problem: FieldProblem };

/**
 * The body of PUT …/sso/provider, or what to fix first. The secret is sent only when one is
 * typed (`replace`), as null for a public client (`none`), and left out to keep the stored one.
 */
export function providerBody(f: ProviderForm): Checked<SsoProviderBody> {
  if (f.protocol === 'saml') return samlBody(f);
  if (f.secretChoice === 'replace' && !f.clientSecret) {
    return { problem: { field: 'clientSecret', message: 'Type the client secret, or choose to keep the stored one or to have none.' } };
  }
  const scopes = parseScopes(f.scopes);
  const body: SsoProviderBody = {
    displayName: f.displayName.trim(),
    issuer: f.issuer.trim(),
    clientId: f.clientId.trim(),
    ...(f.secretChoice === 'replace' ? { clientSecret: f.clientSecret } : f.secretChoice === 'none' ? { clientSecret: null } : {}),
    ...(scopes.length ? { scopes } : {}),
    enabled: f.enabled,
  };
  return { body };
}

/** A SAML provider's body: the IdP's entity id, sign-on URL and one signing certificate (the service checks it parses). */
function samlBody(f: ProviderForm): Checked<SsoProviderBody> {
  if (!f.samlEntityId.trim()) return { problem: { field: 'samlEntityId', message: "Give the IdP's entity id." } };
  if (!f.samlSsoUrl.trim()) return { problem: { field: 'samlSsoUrl', message: "Give the IdP's sign-on URL." } };
  if (!f.samlCertificate.trim()) return { problem: { field: 'samlCertificate', message: "Paste the IdP's signing certificate." } };
  return {
    body: {
      protocol: 'saml', displayName: f.displayName.trim(), enabled: f.enabled,
      saml: { entityId: f.samlEntityId.trim(), ssoUrl: f.samlSsoUrl.trim(), certificates: [f.samlCertificate.trim()] },
    },
  };
}

export interface RuleForm {
  claim: string;
  value: string;
  /** The group's URN, or '' for none. */
  group: string;
  /** An account role, or '' for none. */
  accountRole: '' | NonNullable<SsoRuleBody['accountRole']>;
}

export const EMPTY_RULE: RuleForm = { claim: 'groups', value: '', group: '', accountRole: '' };

export const ruleFormOf = (r: SsoRule): RuleForm => ({ claim: r.claim, value: r.value, group: r.group ?? '', accountRole: r.accountRole ?? '' });

/** The body of POST …/sso/rules (and of PUT …/sso/rules/{id}), or what to fix first. */
export function ruleBody(f: RuleForm): Checked<SsoRuleBody> {
  if (!f.claim.trim()) return { problem: { field: 'claim', message: 'Name the claim the rule reads (e.g. groups).' } };
  if (!f.value) return { problem: { field: 'value', message: 'Give the value the claim must hold.' } };
  if (!f.group && !f.accountRole) return { problem: { field: 'group', message: 'A rule gives a group, an account role, or both.' } };
  return { body: { claim: f.claim.trim(), value: f.value, group: f.group || null, accountRole: f.accountRole || null } };
}

/**
 * The input a refusal of the service is about: `errorValues.field` of a 400 ("issuer",
 * or a schema check's "body.scopes.0"), as the form's top-level field name, when it is one of
 * `fields`; null otherwise (the error is then shown for the whole form).
 */
/** The SAML members the service names in a refusal → the form's inputs. */
const SAML_FIELDS: Record<string, string> = { 'saml.entityId': 'samlEntityId', 'saml.ssoUrl': 'samlSsoUrl', 'saml.certificates': 'samlCertificate', 'saml.metadataXml': 'samlCertificate' };

export function fieldOf(error: unknown, fields: readonly string[]): string | null {
  if (typeof error !== 'object' || error === null || !('values' in error)) return null;
  const named = (error as { values: Record<string, unknown> }).values.field;
  if (typeof named !== 'string') return null;
  const path = named.replace(/^body\./, '');
  const top = SAML_FIELDS[path.replace(/\[\d+\]$/, '')] ?? path.split('.')[0] ?? '';
  return fields.includes(top) ? top : null;
}

/** The command the deployment's operator runs to verify a claimed domain (docs/identity.md "Verifying a domain"). */
export const operatorCommand = (domain: string, token: string): string => `npm run admin -- confirm-sso-domain --domain ${domain} --token ${token}`;

/** What a domain's state means for its users, in one sentence. */
export function domainState(d: { verified: boolean; requireSso: boolean }): string {
  if (!d.verified) return 'Waiting for the operator\'s verification: its users are not offered single sign-on yet.';
  return d.requireSso ? 'Verified; its users must sign in with single sign-on (passwords refused).' : 'Verified; its users may sign in with single sign-on or a password.';
}
