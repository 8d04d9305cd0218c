// The oauth module's descriptor (src/core/modules.ts): tokens, signing keys, the sign-in pages' sessions, revocation.
import type { FeatureModule } from '../modules.ts';
import type { Store } from '../ports/repositories.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import { SIGNING_KEY_RELOAD_SECONDS, type TokenSigner } from '../ports/crypto.ts';
import type { CoreMetrics, Logger } from '../ports/telemetry.ts';
import type { CacheRegistry } from '../cache/registry.ts';
import { createTokenService, type TokenService } from './token-service.ts';
import { createSigningKeys, type SigningKeys } from './signing-keys.ts';
import { createWebSessions, type WebSessions } from './web-sessions.ts';
import { createRevocation, type Revocation } from './revocation.ts';

export interface OauthNeeds {
  store: Store;
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

export const oauthModule: FeatureModule<OauthNeeds, OauthOffers> = {
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
};
