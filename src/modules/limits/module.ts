// The limits module's contract (src/modules/contract.ts): the rate limiter, its exchange of
// counts with the other nodes (a periodic task), and the counts' repository.
import { defineModule } from '../contract.ts';
import { limitsFeature, type LimitsNeeds } from './core/feature.ts';
import type { RateLimitsRepo } from './core/ports.ts';
import type { RateLimiter } from './core/rate-limits.ts';
import { rateLimitsRepo } from './postgres/rate-limits.ts';

export const limitsModule = defineModule<LimitsNeeds, { rateLimiter: RateLimiter }, { rateLimits: RateLimitsRepo }>({
  name: 'limits',
  feature: limitsFeature,
  repositories: { rateLimits: rateLimitsRepo },
  settings: [
    // Read by src/config.ts (rateLimits), documented in the README's configuration table.
    { env: 'RATE_LIMIT_USER_RATE', does: 'requests a second each user may make, sustained; 0: off', default: '20 (0 with SANDBOX)' },
    { env: 'RATE_LIMIT_USER_BURST', does: "the per-user bucket's size", default: '200' },
    { env: 'RATE_LIMIT_ADDRESS_RATE', does: 'the same per client address, before authentication; 0: off', default: '50 (0 with SANDBOX)' },
    { env: 'RATE_LIMIT_ADDRESS_BURST', does: "the per-address bucket's size", default: '500' },
    { env: 'RATE_LIMIT_SYNC_SECONDS', does: 'how often a node exchanges its counts with the other nodes (1-300)', default: '5' },
  ],
});
