// Request metrics and GET /metrics (docs/operations.md). Every answer is counted by method,
// route pattern (never the raw URL: ids would make a series per object) and status. The
// exposition is served on the main port only with METRICS_TOKEN as a bearer token (compared
// in constant time); otherwise /metrics is an unknown route there. METRICS_PORT serves it
// without a token on its own listener (metricsListener, started by src/main.ts).
import http from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler, onRouteHookHandler } from 'fastify';
import type { Services } from '../services.ts';
import { safeEqual, unauthorized, errorFields } from '../core/http-face.ts';
import { METRICS_CONTENT_TYPE } from '../adapters/telemetry/prometheus.ts';

/** The label of a request that matched no route (404s of any URL: one series, not one per URL). */
export const UNMATCHED_ROUTE = 'unmatched';

/** A step run once per answered request, after the answer is sent. */
export type AnswerStep = (req: FastifyRequest, reply: FastifyReply) => void;

/**
 * The request metrics (and the request line, `log`, when info is on), recorded once per
 * answered request: for a route, by an onResponse hook of that route, which the root
 * onRoute hook `onRoute` adds with the route's pattern already known (nothing looked up per
 * request: Fastify's `req.routeOptions` builds an object of a dozen fields on every read);
 * for an answer outside any route (404s, which have no route hooks), `unmatched()` when the
 * not-found handler runs.
 */
export function answerRecorder(core: Pick<Services, 'metrics'>, log?: AnswerStep): { onRoute: onRouteHookHandler; unmatched: AnswerStep } {
  const metrics = core.metrics;
  const stepFor = (route: string): onResponseHookHandler =>
    log === undefined
      ? (req, reply, done) => {
          metrics.request(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
          done();
        }
      : (req, reply, done) => {
          metrics.request(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
          log(req, reply);
          done();
        };
  return {
    // A new array each time: Fastify copies a GET route's options for its HEAD route
    // before the onRoute hooks run, and the HEAD route gets a step of its own.
    onRoute: (route) => {
      const own = route.onResponse === undefined ? [] : Array.isArray(route.onResponse) ? route.onResponse : [route.onResponse];
      route.onResponse = [...own, stepFor(route.url)];
    },
    unmatched: (req, reply) => {
      reply.raw.once('finish', () => {
        metrics.request(req.method, UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
        log?.(req, reply);
      });
    },
  };
}

/** GET /metrics on the main port, with METRICS_TOKEN only. */
export async function metricsRoute(app: FastifyInstance, core: Pick<Services, 'config' | 'metrics'>): Promise<void> {
  const token = core.config.metricsToken;
  if (!token) return;
  const expected = `Bearer ${token}`;
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!safeEqual(req.headers.authorization ?? '', expected)) {
      throw unauthorized('GET /metrics needs the METRICS_TOKEN bearer token');
    }
    return reply.type(METRICS_CONTENT_TYPE).send(await core.metrics.text());
  });
}

/** METRICS_PORT: a listener that serves only GET /metrics (no token: keep the port private). */
export async function metricsListener(core: Pick<Services, 'logger' | 'metrics'>, host: string, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Only GET /metrics is served here\n');
      return;
    }
    core.metrics.text().then(
      (text) => res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(text),
      (e: unknown) => {
        core.logger.error(errorFields(e), 'GET /metrics failed');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
