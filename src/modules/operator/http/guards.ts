// The operator surface's guards (routes.ts, and the sandbox module's routes through index.ts): typed by the one
// use case and the one setting they read, so a module's routes import them without the
// composed service's type.
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../../core/errors.ts';
import { bearerToken } from '../../../http/auth.ts';
import type { AuthenticateOperator } from '../core/operator-auth.ts';

export const routeNotFound = (url: string) =>
  new DomainError('not-found', 'route-not-found', `No route ${url.split('?')[0]!.slice(0, 200)}`);

/** The operator surface's check, every route's onRequest: 404 without OPERATOR_TOKEN, then the token (401, 429). */
export const requireOperator = (core: { authenticateOperator: AuthenticateOperator | null }) => async (req: FastifyRequest): Promise<void> => {
  const authenticate = core.authenticateOperator;
  if (!authenticate) throw routeNotFound(req.url);
  await authenticate(bearerToken(req), req.ip);
};

/** A route that exists only with SANDBOX=1: 404 `route-not-found` otherwise, as if it did not exist. */
export const sandboxOnly = (core: { config: { sandbox: boolean } }) => async (req: { url: string }): Promise<void> => {
  if (!core.config.sandbox) throw routeNotFound(req.url);
};
