// API rate limits (docs/security.md "Rate limits"): the caller's address is charged before
// authentication (so floods of bad tokens count too), the user after it. An empty bucket
// answers 429 with Retry-After in the surface's format (http/errors.ts). A limit that is
// off adds no hook.
import type { FastifyInstance } from 'fastify';
import type { Core } from '../compose.ts';

/** Add before requireAuthentication. */
export function limitByAddress(app: FastifyInstance, core: Pick<Core, 'rateLimiter'>): void {
  const limiter = core.rateLimiter;
  if (!limiter.enabled.address) return;
  app.addHook('onRequest', (req, _reply, done) => {
    try {
      limiter.address(req.ip);
    } catch (e) {
      return done(e as Error);
    }
    done();
  });
}

/** Add after requireAuthentication: the principal is known. */
export function limitByUser(app: FastifyInstance, core: Pick<Core, 'rateLimiter'>): void {
  const limiter = core.rateLimiter;
  if (!limiter.enabled.user) return;
  app.addHook('onRequest', (req, _reply, done) => {
    try {
      if (req.principal) limiter.user(req.principal.userId);
    } catch (e) {
      return done(e as Error);
    }
    done();
  });
}
