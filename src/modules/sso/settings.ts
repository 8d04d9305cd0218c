// The sso module's setting (docs/identity.md): how long one request to an identity provider may take.
import { integer } from '../../kernel-config.ts';
import type { ModuleSettings } from '../contract.ts';

export const ssoTimeoutSettings: ModuleSettings<{ sso: { idpTimeoutSeconds: number } }> = {
  rows: [
    {
      env: 'SSO_IDP_TIMEOUT',
      default: '`10`',
      does: "seconds one request to an account's OpenID Connect identity provider (discovery, keys, code grant) may take before the sign-in page says it is unavailable (1–60; see [docs/identity.md](docs/identity.md))",
    },
  ],
  read: (env) => ({ sso: { idpTimeoutSeconds: integer(env, 'SSO_IDP_TIMEOUT', 10, 1, 60) } }),
};
