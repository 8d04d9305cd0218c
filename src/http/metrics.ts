// Request metrics and GET /metrics (docs/operations.md). Every answer is counted by method,
// route pattern (never the raw URL: ids would make a series per object) and status. The
// exposition is served on the main port only with METRICS_TOKEN as a bearer token (compared
// in constant time); otherwise /metrics is an unknown route there. METRICS_PORT serves it
// without a token on its own listener (metricsListener, started by src/main.ts).
import http from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../compose.ts';
import { safeEqual } from '../core/crypto/digest.ts';
import { unauthorized } from '../core/errors.ts';
import { METRICS_CONTENT_TYPE } from '../adapters/telemetry/prometheus.ts';
import { errorFields } from '../core/ports/telemetry.ts';

/** The label of a request that matched no route (404s of any URL: one series, not one per URL). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The per-request step of the metrics, called by the app's one root onResponse hook
 * (src/http/app.ts), which sees every route, the 404s and the framework errors.
 */
export function requestRecorder(core: Pick<Core, 'metrics'>): (req: FastifyRequest, reply: FastifyReply) => void {
  const metrics = core.metrics;
  return (req, reply) => metrics.request(req.method, req.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
}

/** GET /metrics on the main port, with METRICS_TOKEN only. */
export async function metricsRoute(app: FastifyInstance, core: Core): Promise<void> {
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
export async function metricsListener(core: Core, host: string, port: number): Promise<http.Server> {
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
