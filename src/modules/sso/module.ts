// The SSO module's descriptor (src/core/modules.ts; docs/identity.md): the account's settings
// (API 2 extension, CLI), the sign-in at the account's OIDC identity provider, and a pass that
// deletes the sign-ins abandoned at the IdP.
import type { FeatureModule } from '../../core/modules.ts';
import type { Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { Logger } from '../../core/ports/telemetry.ts';
import type { Authorizer } from '../../core/permissions/authorizer.ts';
import { createSecretBox, createSsoSettings, createSsoSignIn, type OidcRelyingParty, type SsoSettings, type SsoSignIn } from './core/index.ts';

export interface SsoNeeds {
  store: Store;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  authorizer: Authorizer;
  /** The OIDC relying party (./oidc/openid-client.ts in the node). */
  oidcRelyingParty: OidcRelyingParty;
  config: { publicUrl: string };
}

export const ssoModule: FeatureModule<SsoNeeds, { ssoSettings: SsoSettings; ssoSignIn: SsoSignIn }> = {
  name: 'sso',
  create: ({ store, clock, ids, logger, authorizer, oidcRelyingParty, config }) => {
    const secrets = createSecretBox({ sealingKey: (candidate) => store.repos.sso.sealingKey(candidate), ids });
    const ssoSignIn = createSsoSignIn({
      store, clock, ids, secrets, logger, relyingParty: oidcRelyingParty, redirectUri: `${config.publicUrl}/sso/callback`,
    });
    return {
      offers: { ssoSettings: createSsoSettings({ store, clock, ids, authorizer, secrets }), ssoSignIn },
      tasks: [{
        name: 'sso-logins', everySeconds: 600, atStart: false, run: () => ssoSignIn.prune(),
        failure: { level: 'warn', message: 'deleting expired single sign-on logins failed' },
      }],
    };
  },
};
