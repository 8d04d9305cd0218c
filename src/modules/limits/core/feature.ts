// The limits module's descriptor (src/core/modules.ts): the rate limiter, and its exchange
// of counts with the other nodes (a periodic task) when a limit is on.
import type { FeatureModule } from '../../../core/modules.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { RateLimitsRepo } from './ports.ts';
import { createRateLimiter, rateLimitExchange, type RateLimiter, type RateLimiterDeps } from './rate-limits.ts';

export interface LimitsNeeds {
  store: { readonly repos: { rateLimits: RateLimitsRepo } };
  clock: Clock;
  config: { rateLimits: Pick<RateLimiterDeps, 'user' | 'address' | 'syncSeconds'> };
}

export const limitsFeature: FeatureModule<LimitsNeeds, { rateLimiter: RateLimiter }> = {
  name: 'limits',
  create: ({ store, clock, config }) => {
    const rateLimiter = createRateLimiter({ clock, repo: store.repos.rateLimits, ...config.rateLimits });
    const on = rateLimiter.enabled.user || rateLimiter.enabled.address;
    return {
      offers: { rateLimiter },
      tasks: on ? [rateLimitExchange(rateLimiter, config.rateLimits.syncSeconds)] : [],
    };
  },
};
