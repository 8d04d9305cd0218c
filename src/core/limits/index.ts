// The limits module: API rate limits per user and per client address (docs/security.md).
// Offers: RateLimiter and its exchange task. Needs: the clock, the rate-limits repository.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createRateLimiter, rateLimitExchange, tooManyRequests } from './rate-limits.ts';
export type { RateLimiter, RateLimiterDeps } from './rate-limits.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { limitsModule } from './module.ts';
