// The limits module's contract (src/modules/contract.ts): the rate limiter, its exchange of
// counts with the other nodes (a periodic task), and the counts' repository.
import { defineModule, type SettingsOf } from '../contract.ts';
import { limitsSettings } from './settings.ts';
import { limitsFeature, type LimitsNeeds } from './core/feature.ts';
import type { RateLimitsRepo } from './core/ports.ts';
import type { RateLimiter } from './core/rate-limits.ts';
import { rateLimitsRepo } from './postgres/rate-limits.ts';

export const limitsModule = defineModule<LimitsNeeds, { rateLimiter: RateLimiter }, { rateLimits: RateLimitsRepo }, never, never, SettingsOf<typeof limitsSettings>>({
  name: 'limits',
  feature: limitsFeature,
  repositories: { rateLimits: rateLimitsRepo },
  settings: limitsSettings,
});
