// Operations (docs/operations.md): GET /metrics only with METRICS_TOKEN, by route pattern;
// the core's counters and the scraped gauges; /livez and /readyz (503 while draining);
// request log lines carry the errorCode; background failures are logged, not swallowed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig, ConfigError } from '../../src/config.ts';
import { compose, type Core } from '../../src/compose.ts';
import { buildApp, type App } from '../../src/http/app.ts';
import { instrumentSql } from '../../src/adapters/postgres/instrumented.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { migratedDatabase, type TestDatabase } from '../support/database.ts';
import { BASIC_SEED, OPERATOR_TOKEN, PUBLIC_URL, testApp } from '../support/app.ts';
import { sampleValue } from '../support/metrics-text.ts';

const METRICS_TOKEN = 'metrics-token-of-at-least-24-chars';
const op = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const scrape = { authorization: `Bearer ${METRICS_TOKEN}` };

/** Log lines written by the app and the core, parsed. */
const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
    done();
  },
});

let db: TestDatabase;
let core: Core;
let app: App;
before(async () => {
  db = await migratedDatabase();
  const config = loadConfig({ DATABASE_URL: 'memory:', OPERATOR_TOKEN, SANDBOX: '1', PUBLIC_URL, METRICS_TOKEN });
  const logger = pino({ level: 'info' }, sink);
  core = await compose(config, { sql: db.sql, logger });
  app = await buildApp(core, { loggerInstance: logger });
  const res = await app.inject({ method: 'POST', url: '/_operator/seed', headers: op, payload: BASIC_SEED });
  assert.equal(res.statusCode, 200, res.body);
});
after(async () => {
  await app.close();
  await core.close();
  await db.drop();
});

const sample = sampleValue;

async function metrics(): Promise<string> {
  const res = await app.inject({ url: '/metrics', headers: scrape });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return res.body;
}

test('metrics token rule: GET /metrics without the METRICS_TOKEN bearer answers 401 problem+json, a wrong one too', async () => {
  for (const headers of [{}, { authorization: 'Bearer wrong-token-of-at-least-24-chars' }, { authorization: METRICS_TOKEN }]) {
    const res = await app.inject({ url: '/metrics', headers });
    assert.equal(res.statusCode, 401);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    assert.equal(res.json().errorCode, 'unauthorized');
    assert.ok(!res.body.includes('scanbase_'), 'no metric leaks');
  }
});

test('metrics off rule: without METRICS_TOKEN there is no /metrics route on the main port', async () => {
  const config = loadConfig({ DATABASE_URL: 'memory:', PUBLIC_URL });
  const other = await compose(config, { sql: db.sql });
  const otherApp = await buildApp(other);
  try {
    const res = await otherApp.inject({ url: '/metrics', headers: scrape });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().errorCode, 'route-not-found');
  } finally {
    await otherApp.close();
    await other.close();
  }
});

test('metrics config rule: METRICS_TOKEN shorter than 24 characters, METRICS_PORT equal to PORT, a bad SHUTDOWN_DRAIN_SECONDS stop the start', () => {
  assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), (e: unknown) => e instanceof ConfigError && /METRICS_TOKEN/.test(e.message) && !e.message.includes('short'));
  assert.throws(() => loadConfig({ PORT: '9000', METRICS_PORT: '9000' }), /METRICS_PORT/);
  assert.throws(() => loadConfig({ METRICS_PORT: 'x' }), /METRICS_PORT/);
  assert.throws(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '-1' }), /SHUTDOWN_DRAIN_SECONDS/);
  assert.equal(loadConfig({}).shutdownDrainSeconds, 25);
  assert.equal(loadConfig({ METRICS_PORT: '9464' }).metricsPort, 9464);
});

test('metrics route rule: requests are counted by route pattern and status, never by raw URL', async () => {
  const { access_token } = (await app.inject({ method: 'POST', url: '/_operator/tokens', headers: op, payload: { email: 'olivia@acme.test' } })).json();
  const id = '5b3c5d8e-1f2a-4b3c-8d4e-5f6a7b8c9d99';
  const res = await app.inject({ url: `/api/2/accounts/${id}`, headers: { authorization: `Bearer ${access_token}` } });
  assert.ok(res.statusCode >= 400);
  await app.inject({ url: `/no/such/path/${id}` });
  const text = await metrics();
  assert.ok(!text.includes(id), 'no raw URL in any label');
  assert.ok((sample(text, 'scanbase_http_requests_total', { method: 'GET', route: '/api/2/accounts/:accountRef', status: String(res.statusCode) }) ?? 0) >= 1, text);
  assert.ok((sample(text, 'scanbase_http_requests_total', { route: 'unmatched', status: '404' }) ?? 0) >= 1);
  assert.ok((sample(text, 'scanbase_http_request_duration_seconds_count', { route: '/api/2/accounts/:accountRef' }) ?? 0) >= 1);
});

test('metrics once rule: every answer is counted once and logged once: a route, its HEAD twin, an unknown path', async () => {
  const { access_token } = (await app.inject({ method: 'POST', url: '/_operator/tokens', headers: op, payload: { email: 'olivia@acme.test' } })).json();
  const auth = { authorization: `Bearer ${access_token}` };
  const count = (text: string, labels: Record<string, string>) => sample(text, 'scanbase_http_requests_total', labels) ?? 0;
  const logged = (method: string, path: string) => lines.filter((l) => l.msg === 'request' && l.method === method && l.path === path).length;
  const get = { method: 'GET', route: '/api/isLogged', status: '200' };
  const head = { method: 'HEAD', route: '/api/isLogged', status: '200' };
  const unknown = { method: 'GET', route: 'unmatched', status: '404' };
  const before = await metrics();
  const logsBefore = [logged('GET', '/api/isLogged'), logged('HEAD', '/api/isLogged'), logged('GET', '/no/such/thing')];
  assert.equal((await app.inject({ url: '/api/isLogged', headers: auth })).statusCode, 200);
  assert.equal((await app.inject({ method: 'HEAD', url: '/api/isLogged', headers: auth })).statusCode, 200);
  assert.equal((await app.inject({ url: '/no/such/thing' })).statusCode, 404);
  const after = await metrics();
  assert.equal(count(after, get) - count(before, get), 1, 'GET counted once');
  assert.equal(count(after, head) - count(before, head), 1, 'HEAD counted once, under its own method');
  assert.equal(count(after, unknown) - count(before, unknown), 1, '404 counted once');
  assert.deepEqual(
    [logged('GET', '/api/isLogged'), logged('HEAD', '/api/isLogged'), logged('GET', '/no/such/thing')],
    logsBefore.map((n) => n + 1),
    'one request line each',
  );
});

test('metrics refresh rule: a refresh token used twice at once counts one lost conditional update', async () => {
  const { refresh_token } = (await app.inject({ method: 'POST', url: '/_operator/tokens', headers: op, payload: { email: 'mark@acme.test' } })).json();
  const before = sample(await metrics(), 'scanbase_oauth_refresh_lost_total') ?? 0;
  const refresh = () =>
    app.inject({ method: 'POST', url: '/oauth/token', payload: `grant_type=refresh_token&refresh_token=${encodeURIComponent(refresh_token)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const answers = await Promise.all([refresh(), refresh()]);
  assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 401]);
  assert.equal(sample(await metrics(), 'scanbase_oauth_refresh_lost_total'), before + 1);
});

test('metrics jobs rule: a failing job counts a failure of its kind and is logged at warn; the queue depth is scraped', async () => {
  await core.store.transaction((repos) => core.jobRunner.enqueue(repos, { kind: 'metrics-test-kind', payload: {}, createdBy: null }));
  const queued = await metrics();
  assert.equal(sample(queued, 'scanbase_jobs', { kind: 'metrics-test-kind', state: 'queued' }), 1);
  await core.jobRunner.drain();
  const text = await metrics();
  assert.equal(sample(text, 'scanbase_job_failures_total', { kind: 'metrics-test-kind', final: 'true' }), 1);
  assert.equal(sample(text, 'scanbase_jobs', { kind: 'metrics-test-kind', state: 'queued' }), undefined);
  const line = lines.find((l) => l.msg === 'job failed' && l.kind === 'metrics-test-kind');
  assert.ok(line, 'the failure is logged');
  assert.equal(line.level, 40);
  assert.match(String((line.error as { message: string }).message), /No handler/);
});

test('metrics outbox rule: the outbox backlog is scraped from the database', async () => {
  const text = await metrics();
  const n = sample(text, 'scanbase_outbox_messages');
  assert.equal(typeof n, 'number');
  const outbox = (await app.inject({ url: '/_operator/outbox', headers: op })).json();
  const count = Array.isArray(outbox) ? outbox.length : (outbox.messages ?? outbox.items ?? []).length;
  assert.equal(n, count);
});

test('metrics query-error rule: a failing statement is counted by SQLSTATE class and rethrown unchanged', async () => {
  const failure = Object.assign(new Error('duplicate key'), { code: '23505', severity: 'ERROR' });
  const seen: unknown[] = [];
  const fake = { engine: 'pglite', query: async () => Promise.reject(failure), transaction: async (fn: (tx: Sql) => Promise<unknown>) => fn(fake) } as unknown as Sql;
  const sql = instrumentSql(fake, (e) => seen.push(e));
  await assert.rejects(sql.query('SELECT 1'), (e) => e === failure);
  await assert.rejects(sql.transaction((tx) => tx.query('SELECT 1')), (e) => e === failure);
  assert.deepEqual(seen, [failure, failure]);
  core.metrics.queryError(failure);
  assert.ok((sample(await metrics(), 'scanbase_db_query_errors_total', { class: '23' }) ?? 0) >= 1);
});

test('probe rule: /livez 200, /readyz 200 when ready and 503 {status:"draining"} once draining; /healthz unchanged', async () => {
  const config = loadConfig({ DATABASE_URL: 'memory:', PUBLIC_URL });
  const other = await compose(config, { sql: db.sql });
  const otherApp = await buildApp(other);
  try {
    assert.deepEqual((await otherApp.inject({ url: '/readyz' })).json(), { status: 'ok', version: other.version });
    other.beginDrain();
    const ready = await otherApp.inject({ url: '/readyz' });
    assert.equal(ready.statusCode, 503);
    assert.deepEqual(ready.json(), { status: 'draining', reason: 'shutting down', version: other.version });
    assert.equal((await otherApp.inject({ url: '/livez' })).statusCode, 200);
    assert.equal((await otherApp.inject({ url: '/healthz' })).statusCode, 200);
  } finally {
    await otherApp.close();
    await other.close();
  }
});

test('log errorCode rule: a request line of a 4xx answer carries its errorCode; a 2xx line has none', async () => {
  lines.length = 0;
  await app.inject({ url: '/api/2/values/permissions' });
  await app.inject({ url: '/livez' });
  const failed = lines.find((l) => l.msg === 'request' && l.path === '/api/2/values/permissions');
  assert.equal(failed?.status, 401);
  assert.equal(failed?.errorCode, 'unauthorized');
  const ok = lines.find((l) => l.msg === 'request' && l.path === '/livez');
  assert.equal(ok?.status, 200);
  assert.equal('errorCode' in (ok ?? {}), false);
});

test('log level rule: with info off a request logs through the process logger (no child logger per request), and its warnings are written', async () => {
  const written: Record<string, unknown>[] = [];
  const warnOnly = pino({ level: 'warn' }, new Writable({ write(c: Buffer, _e, done) { for (const l of c.toString().split('\n')) if (l) written.push(JSON.parse(l)); done(); } }));
  for (const [logger, childPerRequest] of [[warnOnly, false], [pino({ level: 'info' }, sink), true]] as const) {
    const probeApp = await buildApp(core, { loggerInstance: logger });
    probeApp.get('/log-probe', (req) => {
      req.log.warn({ probe: childPerRequest }, 'probe warning');
      return { child: req.log !== probeApp.log, reqId: (req.log as unknown as { bindings(): Record<string, unknown> }).bindings().reqId ?? null };
    });
    try {
      const res = await probeApp.inject({ url: '/log-probe' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().child, childPerRequest, childPerRequest ? 'info on: a child per request' : 'info off: the process logger itself');
      if (childPerRequest) assert.ok(res.json().reqId, 'the child carries the request id');
    } finally {
      await probeApp.close();
    }
  }
  assert.ok(written.some((l) => l.msg === 'probe warning' && l.probe === false && l.level === 40), JSON.stringify(written));
  assert.ok(!written.some((l) => l.msg === 'request'), 'no request line with info off');
});

test('log background rule: a failing sandbox clock reload is logged at warn, not swallowed', async () => {
  // The reload runs every 2 s on a clock of the sandbox; here the (embedded) database under
  // it is closed. On PostgreSQL, dropping the database under a node leaves close() waiting:
  // a known gap, not what this rule checks.
  const gone = await migratedDatabase('pglite');
  const logged: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write(c: Buffer, _e, done) { for (const l of c.toString().split('\n')) if (l) logged.push(JSON.parse(l)); done(); } }));
  const config = loadConfig({ DATABASE_URL: 'memory:', PUBLIC_URL, SANDBOX: '1' });
  const other = await compose(config, { sql: gone.sql, logger });
  await gone.drop();
  try {
    const deadline = Date.now() + 6000;
    while (!logged.some((l) => l.msg === 'sandbox clock reload failed; retrying in 2 s') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const line = logged.find((l) => l.msg === 'sandbox clock reload failed; retrying in 2 s');
    assert.ok(line, JSON.stringify(logged));
    assert.equal(line.level, 40);
  } finally {
    await other.close().catch((e: unknown) => assert.ok(e instanceof Error));
  }
});

test('cache metrics rule: every named cache reports its entries, weight, bound, hits, misses and evictions, its bound from its setting', async () => {
  const t = await testApp({ METRICS_TOKEN, ACCESS_CACHE_ENTRIES: '1', TAG_TEXT_CACHE_BYTES: '1234' });
  try {
    await t.seed(BASIC_SEED);
    const olivia = (await t.tokens('olivia@acme.test')).access_token;
    const mark = (await t.tokens('mark@acme.test')).access_token;
    const get = async (url: string, token: string) => {
      const res = await t.app.inject({ url, headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const accountId = ((await get('/api/2/accounts', olivia)) as { id: string }[])[0]!.id;
    const scraped = async () => (await t.app.inject({ url: '/metrics', headers: scrape })).body;
    const before = await scraped();
    const at = (text: string, name: string, cache: string) => sample(text, name, { cache }) ?? 0;

    await get(`/api/2/accounts/${accountId}`, olivia); // her scope loaded (or found)
    await get(`/api/2/accounts/${accountId}`, olivia); // found
    await get(`/api/2/accounts/${accountId}`, mark); // his, in the one place: hers is evicted
    const text = await scraped();

    const names = ['account-access', 'project-access', 'project-lists', 'workzone-views', 'role-lists', 'verified-tokens', 'known-users',
      'activity-projects', 'activity-users', 'point-clouds', 'point-cloud-layouts', 'sso-discovery', 'api1-tag-text', 'api2-tag-text'];
    for (const cache of names) {
      for (const series of ['scanbase_cache_entries', 'scanbase_cache_weight', 'scanbase_cache_weight_limit', 'scanbase_cache_hits_total',
        'scanbase_cache_misses_total', 'scanbase_cache_evictions_total']) {
        assert.notEqual(sample(text, series, { cache }), undefined, `${series}{cache="${cache}"}`);
      }
    }
    assert.equal(at(text, 'scanbase_cache_weight_limit', 'account-access'), 1, 'ACCESS_CACHE_ENTRIES');
    assert.equal(at(text, 'scanbase_cache_weight_limit', 'api2-tag-text'), 1234, 'TAG_TEXT_CACHE_BYTES');
    assert.equal(at(text, 'scanbase_cache_weight_limit', 'project-lists'), 50_000, 'PROJECT_LIST_CACHE_PROJECTS by default');
    assert.equal(at(text, 'scanbase_cache_entries', 'account-access'), 1);
    assert.ok(at(text, 'scanbase_cache_hits_total', 'account-access') > at(before, 'scanbase_cache_hits_total', 'account-access'), 'the second read hit');
    assert.ok(at(text, 'scanbase_cache_misses_total', 'account-access') > at(before, 'scanbase_cache_misses_total', 'account-access'), "Mark's first read missed");
    assert.ok(at(text, 'scanbase_cache_evictions_total', 'account-access') > at(before, 'scanbase_cache_evictions_total', 'account-access'), 'a bound of 1 evicts');
    assert.ok(at(text, 'scanbase_cache_hits_total', 'verified-tokens') >= 1, 'a token verified once is found after');
  } finally {
    await t.close();
  }
});
