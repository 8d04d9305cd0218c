// API 2 shapes of the SSO settings (our extension; docs/identity.md). The client secret goes
// in (ProviderPut) and never comes out: SsoProvider says only whether one is set.
import { Type } from 'typebox';
import { DateTime, Nullable, NullableDateTime, StringEnum } from '../../../http/schema-helpers.ts';
import { ACCOUNT_ROLES } from '../../../core/permissions/account-roles.ts';
import { DEFAULT_SAML_ATTRIBUTES, SAML_LIMITS, SSO_LIMITS } from '../core/index.ts';

export const SSO_BODY_LIMIT = 16 * 1024;

const SamlAttributesPut = Type.Object({
  email: Type.Optional(Type.String({ minLength: 1, maxLength: SAML_LIMITS.attributeChars, description: `Default ${DEFAULT_SAML_ATTRIBUTES.email} (else a NameID of format emailAddress)` })),
  firstName: Type.Optional(Type.String({ minLength: 1, maxLength: SAML_LIMITS.attributeChars, description: `Default ${DEFAULT_SAML_ATTRIBUTES.firstName}` })),
  lastName: Type.Optional(Type.String({ minLength: 1, maxLength: SAML_LIMITS.attributeChars, description: `Default ${DEFAULT_SAML_ATTRIBUTES.lastName}` })),
  groups: Type.Optional(Type.String({ minLength: 1, maxLength: SAML_LIMITS.attributeChars, description: `Its values are the \`groups\` claim mapping rules read. Default ${DEFAULT_SAML_ATTRIBUTES.groups}` })),
}, { additionalProperties: false });

const SamlPut = Type.Object({
  entityId: Type.Optional(Type.String({ minLength: 1, maxLength: SAML_LIMITS.entityIdChars, description: "The IdP's entity ID (the assertions' Issuer)" })),
  ssoUrl: Type.Optional(Type.String({ minLength: 1, maxLength: SAML_LIMITS.ssoUrlChars, description: "The IdP's single sign-on URL (HTTP-Redirect binding)" })),
  certificates: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: SAML_LIMITS.certificateChars }), {
    minItems: 1, maxItems: SAML_LIMITS.certificates, description: "The IdP's signing certificates, PEM or base64 (several during a key rollover)",
  })),
  metadataXml: Type.Optional(Type.String({ minLength: 1, maxLength: 256 * 1024, description: "The IdP's metadata XML: fills entityId, ssoUrl and certificates not given" })),
  attributes: Type.Optional(SamlAttributesPut),
}, { additionalProperties: false });

export const ProviderPut = Type.Object({
  protocol: Type.Optional(StringEnum(['oidc', 'saml'] as const)),
  displayName: Type.String({ minLength: 1, maxLength: SSO_LIMITS.displayNameChars, description: 'Shown on the sign-in page: "Continue with <displayName>"' }),
  issuer: Type.Optional(Type.String({ minLength: 1, maxLength: SSO_LIMITS.issuerChars, description: 'OIDC (required): the issuer identifier; discovery reads <issuer>/.well-known/openid-configuration' })),
  clientId: Type.Optional(Type.String({ minLength: 1, maxLength: SSO_LIMITS.clientIdChars, description: 'OIDC (required)' })),
  saml: Type.Optional(SamlPut),
  clientSecret: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: SSO_LIMITS.clientSecretChars, description: 'Write-only. Omitted: the stored one stays; null: none (a public client, PKCE only)' }))),
  scopes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: SSO_LIMITS.scopeChars }), { maxItems: SSO_LIMITS.scopes, description: 'openid and email are always asked for; default openid email profile' })),
  enabled: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

const SamlProvider = Type.Object({
  ssoUrl: Type.String(),
  certificates: Type.Array(Type.Object({
    pem: Type.String(),
    subject: Type.String(),
    notAfter: DateTime,
    sha256Fingerprint: Type.String(),
  })),
  attributes: Type.Object({ email: Type.String(), firstName: Type.String(), lastName: Type.String(), groups: Type.String() }),
  spEntityId: Type.String({ description: 'Our entity ID: the audience to enter at the IdP' }),
  acsUrl: Type.String({ description: 'Our Assertion Consumer Service URL (HTTP-POST binding): the reply URL to enter at the IdP' }),
  metadataUrl: Type.String({ description: "Our SP metadata, for the IdP to import" }),
});

export const SsoProvider = Type.Object({
  protocol: StringEnum(['oidc', 'saml'] as const),
  displayName: Type.String(),
  issuer: Type.String({ description: "OIDC: the issuer identifier; SAML: the IdP's entity ID" }),
  clientId: Type.String({ description: 'OIDC: the client id; SAML: our SP entity ID' }),
  saml: Nullable(SamlProvider),
  hasClientSecret: Type.Boolean({ description: 'Whether a client secret is stored (it is never shown)' }),
  scopes: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  redirectUri: Type.String({ description: 'The redirect URI to register at the identity provider' }),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const SsoDomain = Type.Object({
  domain: Type.String(),
  verified: Type.Boolean(),
  verifiedAt: NullableDateTime,
  requireSso: Type.Boolean({ description: "Password sign-in is refused for the domain's users" }),
  createdAt: DateTime,
});

export const ClaimedDomain = Type.Intersect([SsoDomain, Type.Object({
  verificationToken: Type.String({ description: 'Shown once: give it to the operator, who confirms the domain (docs/identity.md)' }),
})]);

export const DomainPost = Type.Object({ domain: Type.String({ minLength: 1, maxLength: 253 }) }, { additionalProperties: false });
export const DomainPatch = Type.Object({ requireSso: Type.Boolean() }, { additionalProperties: false });

export const RulePost = Type.Object({
  claim: Type.String({ minLength: 1, maxLength: SSO_LIMITS.claimChars, description: 'An ID token claim; dotted names read nested objects (realm_access.roles)' }),
  value: Type.String({ minLength: 1, maxLength: SSO_LIMITS.valueChars, description: 'Matches a claim equal to it, or an array claim containing it' }),
  group: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'A group of the account (URN, UUID or API 1 id)' }))),
  accountRole: Type.Optional(Nullable(StringEnum(ACCOUNT_ROLES))),
}, { additionalProperties: false });

export const MappingRule = Type.Object({
  id: Type.String(),
  claim: Type.String(),
  value: Type.String(),
  group: Nullable(Type.String()),
  accountRole: Nullable(StringEnum(ACCOUNT_ROLES)),
  createdAt: DateTime,
});

export const SsoSettings = Type.Object({
  provider: Nullable(SsoProvider),
  domains: Type.Array(SsoDomain),
  rules: Type.Array(MappingRule),
});
