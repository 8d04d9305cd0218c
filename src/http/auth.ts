// Bearer authentication for API 1 and API 2: a missing, malformed, expired or unknown
// access token answers 401 `unauthorized` in the surface's format.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../core/errors.ts';
import type { Principal } from '../core/oauth/token-service.ts';
import type { Core } from '../compose.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const BEARER_RE = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  return BEARER_RE.exec(h)?.[1] ?? null;
}

/** Adds an onRequest hook to this (encapsulated) context requiring a valid access token. */
export function requireAuthentication(app: FastifyInstance, core: Core): void {
  app.addHook('onRequest', async (req) => {
    const token = bearerToken(req);
    const principal = token ? await core.tokens.authenticate(token) : null;
    if (!principal) throw unauthorized();
    req.principal = principal;
  });
}

export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}
