// The audit module's per-request steps (docs/audit.md), added to the root of the app: every
// request that may change something (POST, PUT, PATCH, DELETE on a route; the single sign-on
// callback and SAML's finish, GETs that sign in) runs from its first handler step in a RequestAudit, so its
// transactions write their records (the store's commit step: core/audit-log.ts) and the
// authorizer notes what it allowed; when it is answered, the outcome record is written unless
// a transaction wrote one (before the answer leaves: a client that got it finds its record).
// A request refused before its handler (no token, a body refused) gets its record there too.
// Other requests: one method comparison per step.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { runWithDecisionLog } from '../../../core/permissions/decisions.ts';
import { CREDENTIAL_CLIENTS, oauthClientName, type AuditLog } from '../core/audit-log.ts';
import type { AuditSurface } from '../core/ports.ts';
import type { RequestAudit } from '../core/request-audit.ts';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Routes that sign someone in: their outcome is signed-in or sign-in-failed. */
const SIGN_IN_ROUTES = new Set(['POST /oauth/login', 'GET /sso/callback', 'GET /sso/saml/:accountId/finish', 'POST /account/sign-in']);
/** The longest text kept of a header or a path parameter. */
const TEXT_KEPT = 200;

/**
 * A request's text as a record keeps it: at most TEXT_KEPT characters, control characters
 * shown as U+FFFD (a path may carry %00, which PostgreSQL's text and jsonb refuse).
 */
// eslint-disable-next-line no-control-regex
const kept = (text: string) => text.slice(0, TEXT_KEPT).replace(/[\u0000-\u001f\u007f]/g, '\uFFFD');

const routeOf = (req: FastifyRequest) => `${req.method} ${req.routeOptions.url}`;

function audited(req: FastifyRequest): boolean {
  if (req.routeOptions.url === undefined) return false; // no route: nothing can change
  return MUTATING.has(req.method) || SIGN_IN_ROUTES.has(routeOf(req));
}

function surfaceOf(url: string): AuditSurface {
  if (url === '/api/2' || url.startsWith('/api/2/')) return 'api2';
  if (url === '/api' || url.startsWith('/api/')) return 'api1';
  if (url.startsWith('/_operator')) return 'operator';
  if (url.startsWith('/oauth/')) return 'oauth';
  if (url.startsWith('/sso/')) return 'sso';
  return 'other';
}

/** Who called (ports.ts AuditEntry.client): an access token's OAuth client, else the credential's kind; null when none is known yet. */
function clientOf(req: FastifyRequest, surface: AuditSurface): string | null {
  if (req.principal) return oauthClientName(req.principal.clientId);
  if (surface === 'operator') return CREDENTIAL_CLIENTS.operator;
  if (req.scimAccountId !== undefined) return CREDENTIAL_CLIENTS.scim;
  return null;
}

function opened(auditLog: AuditLog, req: FastifyRequest): RequestAudit {
  const route = req.routeOptions.url!;
  const operationId = (req.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
  const params = (req.params ?? {}) as Record<string, unknown>;
  const surface = surfaceOf(route);
  const signIn = SIGN_IN_ROUTES.has(routeOf(req));
  const targets = Object.entries(params).map(([k, v]) => `${kept(k)}=${kept(String(v))}`);
  // Who tried: the e-mail address a sign-in form gave (never its password).
  const email = signIn ? (req.body as { email?: unknown } | undefined)?.email : undefined;
  if (typeof email === 'string' && email.trim()) targets.push(`email=${kept(email.trim().toLowerCase())}`);
  return auditLog.open({
    surface,
    operation: `${operationId ? `${operationId} ` : ''}${req.method} ${route}`,
    targets,
    ip: req.ip,
    client: () => clientOf(req, surface),
    userId: () => req.principal?.userId ?? null,
    signIn,
  });
}

export function auditHooks(app: FastifyInstance, use: { auditLog: AuditLog }): void {
  const audits = new WeakMap<FastifyRequest, RequestAudit>();
  app.addHook('preHandler', (req, _reply, done) => {
    if (!audited(req)) return done();
    const audit = opened(use.auditLog, req);
    audits.set(req, audit);
    runWithDecisionLog(audit, done);
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.method === 'GET' && !audits.has(req)) return done(null, payload);
    if (!audited(req)) return done(null, payload);
    const audit = audits.get(req) ?? opened(use.auditLog, req);
    use.auditLog.recordOutcome(audit, reply.statusCode).then(() => done(null, payload), (e: Error) => done(e));
  });
}
