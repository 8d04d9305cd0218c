// The oauth module's contract (src/modules/contract.ts; docs/tokens.md): tokens, signing keys,
// the sign-in pages' browser sessions and a user's revocation, its repositories (authorization
// codes and refresh tokens, web sessions), the token service's endpoints and authorize pages,
// API 2's sessions, their operation docs, its event (with the caches it makes stale) and error codes.
import { defineModule } from '../contract.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import { SIGNING_KEY_RELOAD_SECONDS, type TokenSigner } from '../../core/ports/crypto.ts';
import type { CoreMetrics, Logger } from '../../core/ports/telemetry.ts';
import type { CacheRegistry } from '../../core/cache/registry.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import { createTokenService, type TokenService } from './core/token-service.ts';
import { createSigningKeys, type SigningKeys } from './core/signing-keys.ts';
import { createWebSessions, type WebSessions } from './core/web-sessions.ts';
import { createRevocation, type Revocation } from './core/revocation.ts';
import type { OauthRepos } from './core/ports.ts';
import type { OauthEventType } from './core/events.ts';
import { OAUTH_ERROR_CODES } from './core/errors.ts';
import { oauthRepo } from './postgres/oauth-repo.ts';
import { webSessionsRepo } from './postgres/web-sessions-repo.ts';
import { sessionRoutes } from './http/api2.ts';
import { oauthRoutes } from './http/oauth-server.ts';
import { OAUTH_API2_OPERATIONS } from './http/operations.ts';

export interface OauthNeeds {
  store: Store<Repos & OauthRepos>;
  clock: Clock;
  ids: Ids;
  signer: TokenSigner;
  logger: Logger;
  metrics: { core: CoreMetrics };
  caches: CacheRegistry;
  config: { urnNamespace: string; refreshReuseDetection: boolean; tokenCacheEntries: number; knownUserCacheEntries: number };
}

export interface OauthOffers {
  tokens: TokenService;
  signingKeys: SigningKeys;
  webSessions: WebSessions;
  revocation: Revocation;
}

const { user } = invalidationRules;

export const oauthModule = defineModule<OauthNeeds, OauthOffers, OauthRepos, OauthEventType, keyof typeof OAUTH_ERROR_CODES>({
  name: 'oauth',
  feature: {
    name: 'oauth',
    create: ({ store, clock, ids, signer, logger, metrics, caches, config }) => ({
      offers: {
        tokens: createTokenService({
          store, clock, ids, signer, urnNamespace: config.urnNamespace, refreshReuseDetection: config.refreshReuseDetection,
          metrics: metrics.core, caches, cacheSize: config.tokenCacheEntries, knownUsersSize: config.knownUserCacheEntries,
        }),
        signingKeys: createSigningKeys({ store, clock, signer, logger }),
        webSessions: createWebSessions({ store, clock, ids }),
        revocation: createRevocation({ store, clock }),
      },
      tasks: [
        {
          // Another node's rotation reaches this one within the period even if its event was missed.
          name: 'signing-keys', everySeconds: SIGNING_KEY_RELOAD_SECONDS, atStart: false, run: () => signer.reload(),
          failure: { level: 'warn', message: 'signing keys reload failed; retrying at the next pass' },
        },
      ],
    }),
  },
  repositories: { oauth: oauthRepo, webSessions: webSessionsRepo },
  // The authorize pages share their browser session with the users' pages and SSO's (src/http/oauth/page-helpers.ts).
  routes: { api2: sessionRoutes, other: { plugin: oauthRoutes, browser: true } },
  operations: { api2: OAUTH_API2_OPERATIONS },
  invalidation: {
    // Every session of the user ended (his revocation point moved): his known-user entry goes,
    // so each node's bearer check reads the new point at his next request.
    'user.signed-out-everywhere': user,
  },
  errorCodes: OAUTH_ERROR_CODES,
});
