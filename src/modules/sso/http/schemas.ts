// API 2 shapes of the SSO settings (our extension; docs/identity.md). The client secret goes
// in (ProviderPut) and never comes out: SsoProvider says only whether one is set.
import { Type } from 'typebox';
import { DateTime, Nullable, NullableDateTime, StringEnum } from '../../../http/schema-helpers.ts';
import { ACCOUNT_ROLES } from '../../../core/permissions/account-roles.ts';
import { SSO_LIMITS } from '../core/index.ts';

export const SSO_BODY_LIMIT = 16 * 1024;

export const ProviderPut = Type.Object({
  displayName: Type.String({ minLength: 1, maxLength: SSO_LIMITS.displayNameChars, description: 'Shown on the sign-in page: "Continue with <displayName>"' }),
  issuer: Type.String({ minLength: 1, maxLength: SSO_LIMITS.issuerChars, description: 'The issuer identifier; discovery reads <issuer>/.well-known/openid-configuration' }),
  clientId: Type.String({ minLength: 1, maxLength: SSO_LIMITS.clientIdChars }),
  clientSecret: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: SSO_LIMITS.clientSecretChars, description: 'Write-only. Omitted: the stored one stays; null: none (a public client, PKCE only)' }))),
  scopes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: SSO_LIMITS.scopeChars }), { maxItems: SSO_LIMITS.scopes, description: 'openid and email are always asked for; default openid email profile' })),
  enabled: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

export const SsoProvider = Type.Object({
  displayName: Type.String(),
  issuer: Type.String(),
  clientId: Type.String(),
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
