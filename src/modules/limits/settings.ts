// The limits module's settings (docs/security.md "Rate limits"): the token buckets of API 1,
// API 2 and /connect, per user 20 requests a second with bursts of 200, per client address 50
// a second with bursts of 500; off in SANDBOX unless set. A rate of 0 turns one off.
import { integer } from '../../kernel-config.ts';
import type { ModuleSettings } from '../contract.ts';
import type { RateLimiterDeps } from './core/rate-limits.ts';

/** The rate limiter's buckets and pace, as its use case takes them. */
export type RateLimitsConfig = Pick<RateLimiterDeps, 'user' | 'address' | 'syncSeconds'>;

export const limitsSettings: ModuleSettings<{ rateLimits: RateLimitsConfig }> = {
  rows: [
    {
      env: 'RATE_LIMIT_USER_RATE',
      default: '`20` (`0` with `SANDBOX`)',
      does:
        'API 1, API 2 and `/connect/…` requests a second each user may make, sustained (a token bucket); `0` turns the per-user limit off. ' +
        'Over it: 429 with `Retry-After`. See [docs/security.md](docs/security.md#rate-limits)',
    },
    { env: 'RATE_LIMIT_USER_BURST', default: '`200`', does: "the per-user bucket's size: requests allowed at once after a quiet period (at least 1)" },
    { env: 'RATE_LIMIT_ADDRESS_RATE', default: '`50` (`0` with `SANDBOX`)', does: 'the same per client address (after `TRUST_PROXY`), counted before authentication; `0` turns it off' },
    { env: 'RATE_LIMIT_ADDRESS_BURST', default: '`500`', does: "the per-address bucket's size" },
    {
      env: 'RATE_LIMIT_SYNC_SECONDS',
      default: '`5`',
      does:
        'how often a node exchanges what it took with the other nodes through the database (1–300): with N nodes a key gets at most ' +
        '`rate × T + N × (burst + rate × RATE_LIMIT_SYNC_SECONDS)` requests in T seconds',
    },
  ],
  read: (env, { sandbox }) => ({
    rateLimits: {
      user: {
        rate: integer(env, 'RATE_LIMIT_USER_RATE', sandbox ? 0 : 20, 0, 1_000_000),
        burst: integer(env, 'RATE_LIMIT_USER_BURST', 200, 1, 10_000_000),
      },
      address: {
        rate: integer(env, 'RATE_LIMIT_ADDRESS_RATE', sandbox ? 0 : 50, 0, 1_000_000),
        burst: integer(env, 'RATE_LIMIT_ADDRESS_BURST', 500, 1, 10_000_000),
      },
      syncSeconds: integer(env, 'RATE_LIMIT_SYNC_SECONDS', 5, 1, 300),
    },
  }),
};
