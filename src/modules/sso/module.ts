// The SSO module's contract (src/modules/contract.ts; docs/identity.md): an account's single
// sign-on with an OpenID Connect or a SAML 2.0 IdP. Its settings (API 2 extension, CLI), the
// sign-in at the IdP from the OAuth pages (/sso/start, /sso/callback; SAML: /sso/saml/<account>/
// acs, …/finish, …/metadata), a pass that deletes the sign-ins abandoned at the IdP and the
// SAML assertion IDs past their NotOnOrAfter; its table repository, operation docs and error codes.
import { defineModule, type SettingsOf } from '../contract.ts';
import { ssoTimeoutSettings } from './settings.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { Logger } from '../../core/ports/telemetry.ts';
import type { Authorizer } from '../../core/permissions/authorizer.ts';
import type { CacheRegistry } from '../../core/cache/registry.ts';
import { createSecretBox } from '../../core/crypto/secret-box.ts';
import {
  createSsoSettings, createSsoSignIn, SSO_ERROR_CODES,
  type SsoErrorCode, type SsoRepo, type SsoSettings, type SsoSignIn, type SsoStore,
} from './core/index.ts';
import { createOpenIdRelyingParty } from './adapters/openid-client.ts';
import { createNodeSamlServiceProvider } from './adapters/node-saml.ts';
import { ssoRepo } from './postgres/sso-repo.ts';
import { ssoRoutes } from './http/api2.ts';
import { ssoPages } from './http/pages.ts';
import { SSO_OPERATIONS } from './http/operations.ts';

export interface SsoNeeds {
  store: SsoStore;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  authorizer: Authorizer;
  config: { publicUrl: string; sso: { idpTimeoutSeconds: number } };
  /** The node's caches: the identity providers' discovery documents (`sso-discovery`). */
  caches: CacheRegistry;
}

export const ssoModule = defineModule<SsoNeeds, { ssoSettings: SsoSettings; ssoSignIn: SsoSignIn }, { sso: SsoRepo }, never, SsoErrorCode, SettingsOf<typeof ssoTimeoutSettings>>({
  name: 'sso',
  feature: {
    name: 'sso',
    create: ({ store, clock, ids, logger, authorizer, config, caches }) => {
      const secrets = createSecretBox({ sealingKey: (candidate) => store.repos.settings.keepFirst('sso.sealing_key', candidate), ids });
      const samlSp = createNodeSamlServiceProvider({ timeoutSeconds: config.sso.idpTimeoutSeconds });
      const ssoSignIn = createSsoSignIn({
        store, clock, ids, secrets, logger, samlSp, publicUrl: config.publicUrl,
        relyingParty: createOpenIdRelyingParty({ timeoutSeconds: config.sso.idpTimeoutSeconds, now: () => clock.nowMs(), caches }),
        redirectUri: `${config.publicUrl}/sso/callback`,
      });
      return {
        offers: { ssoSettings: createSsoSettings({ store, clock, ids, authorizer, secrets, samlSp, publicUrl: config.publicUrl }), ssoSignIn },
        tasks: [{
          name: 'sso-logins', everySeconds: 600, atStart: false, run: () => ssoSignIn.prune(),
          failure: { level: 'warn', message: 'deleting expired single sign-on logins and SAML assertion IDs failed' },
        }],
      };
    },
  },
  repositories: { sso: ssoRepo },
  // /sso/start and /sso/callback share the OAuth pages' browser session.
  routes: { api2: ssoRoutes, other: { plugin: ssoPages, browser: true } },
  operations: { api2: SSO_OPERATIONS },
  errorCodes: SSO_ERROR_CODES,
  settings: ssoTimeoutSettings,
});
