// The description of every API 2 operation of the SSO settings (src/http/operation-docs.ts;
// docs/identity.md): what it does, the permission the use case checks, the codes it answers.
import { API2_ACCOUNT_ERRORS as ACCOUNT, type OperationTable } from '../../../http/operation-docs.ts';

const S = '/api/2/accounts/{accountRef}/sso';
const READ = '`account:administrators:read` (the account owner and administrators).';
const WRITE = '`account:administrators:write` (the account owner and administrators).';
const OURS = 'Our extension, not in the vendor\'s API (docs/identity.md).';

export const SSO_OPERATIONS: OperationTable = {
  [`GET ${S}`]: {
    does: `The account's single sign-on: its identity provider, OpenID Connect or SAML 2.0 (the client secret only as \`hasClientSecret\`; SAML: the certificates with their subject, expiry and fingerprint, and our SP entity ID, ACS URL and metadata URL to enter at the IdP), its e-mail domains (verified or not, require SSO or not) and its mapping rules. ${OURS}`,
    permission: READ,
    errors: [...ACCOUNT, 'read-sso-forbidden'],
  },
  [`PUT ${S}/provider`]: {
    does: 'Sets the account\'s identity provider. `protocol` `oidc` (the default): display name, issuer (https; discovery at `<issuer>/.well-known/openid-configuration`), client id, ' +
      'client secret (write-only, sealed at rest; omitted: kept; null: a public client), scopes (`openid email` always); answers `redirectUri`, the address to register at the IdP. ' +
      '`protocol` `saml`: display name and `saml` { entityId, ssoUrl, certificates (PEM or base64), or metadataXml that gives them; attributes (email, firstName, lastName, groups: attribute names, defaults Entra ID\'s claim URIs) }; ' +
      'an OIDC field with it, an unknown field or a certificate that does not parse is a 400 naming the field; answers `saml.spEntityId`, `saml.acsUrl` and `saml.metadataUrl` to enter at the IdP. ' +
      `Setting one protocol replaces the other. ${OURS}`,
    permission: WRITE,
    errors: [...ACCOUNT, 'invalid-input', 'manage-sso-forbidden'],
  },
  [`DELETE ${S}/provider`]: {
    does: `Removes the identity provider: its users sign in with a password again (those created by SSO set one with "Forgot password?"). ${OURS}`,
    permission: WRITE,
    errors: [...ACCOUNT, 'manage-sso-forbidden', 'sso-provider-not-found'],
  },
  [`POST ${S}/domains`]: {
    does: `Claims an e-mail domain; answers 201 with its verification token, shown once: the operator confirms the claim with it (\`npm run admin -- confirm-sso-domain\`). ${OURS}`,
    permission: WRITE,
    errors: [...ACCOUNT, 'invalid-input', 'manage-sso-forbidden', 'sso-domain-claimed', 'sso-domain-limit-reached'],
  },
  [`PATCH ${S}/domains/{domain}`]: {
    does: `Requires single sign-on for the domain's users (password sign-in refused), or not. Only a verified domain of an account whose provider is enabled may require it. ${OURS}`,
    permission: WRITE,
    errors: [...ACCOUNT, 'invalid-input', 'manage-sso-forbidden', 'sso-domain-not-found', 'sso-domain-not-verified', 'sso-provider-not-found'],
  },
  [`DELETE ${S}/domains/{domain}`]: {
    does: `Removes a domain claim: its users no longer sign in with the account's IdP. ${OURS}`,
    permission: WRITE,
    errors: [...ACCOUNT, 'manage-sso-forbidden', 'sso-domain-not-found'],
  },
  [`POST ${S}/rules`]: {
    does: 'Adds a mapping rule: when the ID token\'s `claim` equals `value` (or is an array containing it), the user gets `group` and/or `accountRole`. ' +
      `Applied at each sign-in; a group or role some rule names is removed from a user no rule gives it. ${OURS}`,
    permission: WRITE,
    errors: [...ACCOUNT, 'invalid-input', 'invalid-group-urn', 'group-not-found', 'manage-sso-forbidden', 'sso-rule-limit-reached'],
  },
  [`PUT ${S}/rules/{ruleId}`]: {
    does: 'Replaces a mapping rule\'s `claim`, `value`, `group` and `accountRole` (the body of the rule\'s creation); its id and its place in the list stay. ' +
      `Applied from the next sign-in. ${OURS}`,
    permission: WRITE,
    errors: [...ACCOUNT, 'invalid-input', 'invalid-group-urn', 'group-not-found', 'manage-sso-forbidden', 'sso-rule-not-found'],
  },
  [`DELETE ${S}/rules/{ruleId}`]: {
    does: `Removes a mapping rule. ${OURS}`,
    permission: WRITE,
    errors: [...ACCOUNT, 'manage-sso-forbidden', 'sso-rule-not-found'],
  },
};
