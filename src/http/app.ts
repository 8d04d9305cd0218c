// Builds the HTTP app from the HTTP layer's face (src/services.ts) without listening: tests use app.inject(),
// main.ts and the benchmarks listen on a real port.
import type { Socket } from 'node:net';
import Fastify, {
  LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import cookie from '@fastify/cookie';
import type { HttpServices } from '../services.ts';
import { errorCodeOf, errorHandler, notFoundHandler } from './errors.ts';
import { answerRecorder, metricsRoute } from './metrics.ts';
import { lazyCompilers } from './lazy-compilers.ts';
import { registerOpenApi } from './openapi.ts';
import { healthRoutes } from './health.ts';
import { api1Routes } from './api1/routes.ts';
import { api2Routes } from './api2/routes.ts';
import { consoleRoutes } from './console.ts';
import { consoleSessionRoutes } from './console-session.ts';
import { ROUTE_MODULES } from './route-modules.ts';
import { bodyDeadline, hasBody, idleConnections, serverTimeOptions } from './timeouts.ts';
import { connectionsPerAddress } from './address-connections.ts';
import { closeBodySchema } from './strict-bodies.ts';
import { formBodies, jsonBodies } from './request-bodies.ts';
import { answerExpectationFailed, refuseRequest, requireHost, trackRequests } from './client-errors.ts';
import { loggedPath } from './logged-path.ts';
import { CONTRACT_REQUEST_HOOKS } from '../modules/registries.ts';

export type App = FastifyInstance;

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /** The process logger (src/main.ts): the app's lines go where the start-up lines went. */
  loggerInstance?: FastifyBaseLogger;
}

/** Never logs secrets: tokens, codes, cookies, passwords (CONTRACT §1). */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/** One year, the usual HSTS lifetime (RFC 6797 §6.1.1); only for an https PUBLIC_URL. */
export const HSTS_SECONDS = 365 * 24 * 3600;

/**
 * Headers every response carries, set when the request arrives (error and 404 replies
 * keep them): the version, `nosniff` (no response is ever content-sniffed into HTML or
 * script), and HSTS when the service is published over https.
 */
export function responseHeaders(core: Pick<HttpServices, 'version' | 'config'>): Record<string, string> {
  const h: Record<string, string> = { 'x-scanbase-version': core.version, 'x-content-type-options': 'nosniff' };
  if (core.config.publicUrl.startsWith('https:')) h['strict-transport-security'] = `max-age=${HSTS_SECONDS}`;
  return h;
}

export { loggedPath } from './logged-path.ts';

/** One JSON line per request. */
function logRequest(req: FastifyRequest, reply: FastifyReply): void {
  req.log.info(
    {
      method: req.method,
      path: loggedPath(req.url),
      status: reply.statusCode,
      errorCode: errorCodeOf(reply),
      ms: Math.round(reply.elapsedTime * 10) / 10,
      user: req.principal?.userId,
    },
    'request',
  );
}

/**
 * The process logger as the app gets it. With info off (LOG_LEVEL) a request needs no child
 * logger (its request id would tie together lines that are not written): this one's
 * child() is itself, so Fastify's default child factory costs a call. (A child factory of
 * our own would do the same, but Fastify checks what a custom factory returns on every
 * request: an array of method names and a filter, 0.1–0.2 µs.)
 */
function appLogger(logger: FastifyBaseLogger): FastifyBaseLogger {
  if ((logger as Partial<Pick<Logger, 'isLevelEnabled'>>).isLevelEnabled?.('info') !== false) return logger;
  return Object.create(logger, {
    child: {
      value(this: FastifyBaseLogger) {
        return this;
      },
    },
  }) as FastifyBaseLogger;
}

export async function buildApp(core: HttpServices, opts: AppOptions = {}): Promise<App> {
  const always = responseHeaders(core);
  const compilers = lazyCompilers();
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: appLogger(opts.loggerInstance) } : { logger: opts.logger ?? false }),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 1000 },
    return503OnClosing: true,
    // Header and connection limits (HEADERS_TIMEOUT, MAX_CONNECTIONS); the body deadline is
    // armed by the root onRequest hook (bodyDeadline), IDLE_TIMEOUT swept (idleConnections).
    // A missing Host header is refused by the requireHost hook, in the surface's format.
    ...serverTimeOptions(core.config, { requireHostHeader: false }),
    trustProxy: core.config.trustProxy,
    ajv: { customOptions: { allErrors: false, coerceTypes: 'array', removeAdditional: false } },
    // Each route's schemas are compiled on its first request (src/http/lazy-compilers.ts).
    schemaController: { compilersFactory: compilers.compilersFactory },
    // Undecodable URLs and over-long path parameters bypass the hooks: render them like
    // every other failure, version header included.
    frameworkErrors: (err, req, reply) => {
      reply.raw.once('finish', () => logRequest(req, reply));
      return errorHandler(err, req, reply.headers(always));
    },
    // Requests Node's HTTP parser refuses (bad header bytes, headers over 16 KB) never
    // reach Fastify: answer them in their surface's format with the version header too.
    clientErrorHandler: (err, socket) => refuseRequest(err, socket as Socket, always),
  }).withTypeProvider<TypeBoxTypeProvider>();

  compilers.bind(app);
  app.decorateRequest('principal', null);
  answerExpectationFailed(app.server, always);
  trackRequests(app.server);
  app.setErrorHandler(errorHandler);

  // Per-request work is kept to what is required, in callback-style hooks (an async hook
  // costs a promise and a microtask per request). The version header is set when the
  // request arrives: error and 404 replies keep the headers already set.
  const armBodyDeadline = bodyDeadline(app, core.config, always);
  idleConnections(app.server, core.config);
  // MAX_CONNECTIONS_PER_ADDRESS; a step per request only for connections from trusted proxies.
  const perAddress = connectionsPerAddress(app.server, core.config.maxConnectionsPerAddress, core.config.trustProxy);
  // The headers as [name, value] pairs, set one by one: reply.headers(object) lists the
  // object's keys anew on every request.
  const alwaysPairs = Object.entries(always);
  app.addHook('onRequest', (req, reply, done) => {
    for (const [name, value] of alwaysPairs) reply.header(name, value);
    const refused = perAddress?.(req, reply);
    if (refused) return done(refused);
    // No route: answered before its body is read, and the connection closed (the body is
    // never read, docs/security.md "Slow clients").
    if (req.is404 && hasBody(req)) {
      reply.header('connection', 'close');
      notFound(req, reply);
      return;
    }
    armBodyDeadline(req, reply);
    requireHost.call(app, req, reply, done);
  });
  // The modules' root steps (src/modules/contract.ts requestHooks): the sandbox module's
  // request gate and journal with OPERATOR_TOKEN, its fault rules with SANDBOX=1; none otherwise.
  for (const hooks of CONTRACT_REQUEST_HOOKS) hooks(app, core);
  // The request metrics (src/http/metrics.ts) and the request line, written at info, in
  // one onResponse step per route (added by an onRoute hook, with the route's pattern) and
  // on 404 answers. The level is fixed at start (LOG_LEVEL): when info is off the line
  // costs nothing, and there is no per-request child logger either (appLogger; a logger
  // Fastify made from `opts.logger`, in tests, gets a factory returning it). With
  // `logger: false` (tests) Fastify already skips the child.
  const log = app.log as Partial<Pick<Logger, 'isLevelEnabled'>>;
  const logLines = log.isLevelEnabled?.('info') === true;
  if (!logLines && log.isLevelEnabled && !opts.loggerInstance) app.setChildLoggerFactory((logger) => logger);
  const answers = answerRecorder(core, logLines ? logRequest : undefined);
  app.addHook('onRoute', answers.onRoute);
  function notFound(req: FastifyRequest, reply: FastifyReply) {
    answers.unmatched(req, reply);
    return notFoundHandler(req, reply);
  }
  app.setNotFoundHandler(notFound);

  // Bodies: JSON (UTF-8, empty = none), forms only where registered (src/http/request-bodies.ts);
  // before any route (and the OpenAPI generator), bodies refuse undeclared properties.
  jsonBodies(app);
  app.addHook('onRoute', closeBodySchema);
  await registerOpenApi(app, core);

  await metricsRoute(app, core);
  await app.register(healthRoutes(core));
  // Each module's routes outside the APIs (src/http/route-modules.ts). Only the browser pages
  // (the OAuth pages, and the users module's pages that share their session) read or set
  // cookies, each in a context of its own: elsewhere (the APIs above all) no cookie parsing and no onSend hook.
  for (const { other } of ROUTE_MODULES) {
    if (!other) continue;
    if (other.browser) {
      await app.register(async (pages) => {
        await formBodies(pages);
        await pages.register(cookie);
        await pages.register(other.plugin(core));
      }, { prefix: other.prefix });
    } else {
      await app.register(other.plugin(core), { prefix: other.prefix });
    }
  }
  await app.register(consoleRoutes(core));
  await app.register(consoleSessionRoutes(core));
  await app.register(api1Routes(core), { prefix: '/api' });
  await app.register(api2Routes(core), { prefix: '/api/2' });
  return app;
}
