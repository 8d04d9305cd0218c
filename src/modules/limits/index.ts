// The limits module's public face: API rate limits per user and per client address
// (docs/security.md); src/http checks each request with the RateLimiter it offers.
export type { RateLimiter, RateLimiterDeps } from './core/rate-limits.ts';
export type { RateLimitsRepo } from './core/ports.ts';
