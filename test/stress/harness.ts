// The never-hang stress run (issue 25; docs/operations.md "Stress run"): one node, composed
// in this process and listening on loopback (real sockets, real timers, file-backed PGlite
// or a fresh PostgreSQL database), driven at once and at short random intervals by several
// users (projects, zones, members, files with covers, tag lists, webhooks, token refreshes,
// both APIs), an operator (resets, clock moves) and a readiness poller, with every periodic
// task at a one-second period. It fails on any request that does not answer within
// ANSWER_LIMIT_MS, any 5xx, a /readyz slower than 2 s, and broken data invariants after each
// reset and at the end (the seed applied once, no orphan rows, every file's object stored).
//
// The seed decides every actor's sequence of actions and waits (mulberry32 per actor), so a
// failing seed replays the same requests in the same order per actor; the interleaving of
// actors is the machine's.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { compose, type Core } from '../../src/compose.ts';
import { buildApp } from '../../src/http/app.ts';
import { openPglite } from '../../src/adapters/postgres/pglite.ts';
import { openPostgres } from '../../src/adapters/postgres/node-postgres.ts';
import { migrate } from '../../src/adapters/postgres/migrate.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { freshPostgresUrl } from '../support/database.ts';
import { blobKey } from '../../src/core/ports/object-store.ts';
import { seededRandom } from '../../src/modules/sandbox/core/fault-rules.ts';

export interface StressOptions {
  seconds: number;
  seed: number;
  engine: 'pglite' | 'postgres';
  /** PostgreSQL server to create the run's database on (engine postgres). */
  postgresUrl?: string;
  /** Users driving the API at once (besides the operator and the poller). */
  users?: number;
  /** Progress lines (none by default). */
  log?: (line: string) => void;
  /** The longest /readyz answer allowed (default 2,000 ms, the probe's promise). */
  readyLimitMs?: number;
}

export interface StressReport {
  seed: number;
  engine: string;
  seconds: number;
  requests: number;
  /** Answers by status. */
  statuses: Record<string, number>;
  resets: number;
  clockMoves: number;
  longestMs: number;
  longestRequest: string;
  readyz: { polls: number; longestMs: number; notReady: number };
  /** What went wrong; empty when the run passed. */
  failures: string[];
}

/** No answer within this is a hang (the deadlines: 5 s wait + 10 s transaction, set below). */
export const ANSWER_LIMIT_MS = 20_000;
const OPERATOR_TOKEN = 'stress-operator-token-of-24-chars';
const IDS = {
  account: '5e000000-0000-4000-8000-000000000001',
  subscription: '5e000000-0000-4000-8000-000000000002',
};
const userId = (i: number) => `5e000000-0000-4000-8000-0000000010${String(i).padStart(2, '0')}`;
const userEmail = (i: number) => `user${i}@stress.test`;

/** The seed applied at start and by every reset: fixed ids, so the world comes back the same. */
function seedDocument(users: number) {
  const emails = Array.from({ length: users }, (_, i) => userEmail(i));
  return {
    users: emails.map((email, i) => ({ id: userId(i), email, password: `stress-password-${i}`, firstName: `User${i}` })),
    accounts: [{
      id: IDS.account, name: 'Stress', owner: emails[0], administrators: emails.slice(1, 2), members: emails.slice(2),
      subscriptions: [{ id: IDS.subscription, name: 'Pro', scanCapacity: 100_000, tagCapacity: 1_000_000, geoImageCapacity: 1_000 }],
    }],
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  body: any;
}

/** The run's HTTP client: every request timed, counted and checked against the limits. */
class Client {
  readonly report: StressReport;
  readonly base: string;
  constructor(base: string, report: StressReport) {
    this.base = base;
    this.report = report;
  }

  async send(what: string, method: string, pathname: string, init: { token?: string; json?: unknown; body?: Uint8Array; headers?: Record<string, string>; form?: Record<string, string> } = {}): Promise<Answer | null> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body: BodyInit | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    } else if (init.body) body = new Uint8Array(init.body);
    const started = performance.now();
    let status: number;
    let text: string;
    try {
      const res = await fetch(new URL(pathname, this.base), { method, headers, body, signal: AbortSignal.timeout(ANSWER_LIMIT_MS), redirect: 'manual' });
      status = res.status;
      text = await res.text();
    } catch (e) {
      this.report.failures.push(`${what}: ${method} ${pathname}: no answer within ${ANSWER_LIMIT_MS} ms (${(e as Error).message})`);
      return null;
    }
    const ms = performance.now() - started;
    this.report.requests++;
    this.report.statuses[status] = (this.report.statuses[status] ?? 0) + 1;
    if (ms > this.report.longestMs) {
      this.report.longestMs = Math.round(ms);
      this.report.longestRequest = `${what}: ${method} ${pathname} (${status})`;
    }
    // /readyz may say 503 with its reason (a dependency slower than 1 s at that moment is
    // the truth): the poller judges it; any other 5xx is a failure.
    if (status >= 500 && pathname !== '/readyz') this.report.failures.push(`${what}: ${method} ${pathname}: ${status} ${text.slice(0, 300)}`);
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: kept as text */
    }
    return { status, body: parsed };
  }
}

const md5 = (b: Uint8Array) => crypto.createHash('md5').update(b);
/** A small valid PNG-like cover (the service checks the signature bytes). */
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One user's loop: random actions on what it created since the last reset it noticed. */
async function userLoop(c: Client, i: number, seed: number, until: number, epoch: () => number) {
  const rnd = seededRandom(seed * 7919 + i);
  const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(rnd() * xs.length)];
  const A2 = `/api/2/accounts/${IDS.account}`;
  let token: string | null = null;
  let refreshToken: string | null = null;
  let seen = -1;
  let projects: { id: string; root: string; zones: string[] }[] = [];
  let viewerRole: string | null = null;
  const as = `user${i}`;

  const signIn = async () => {
    const r = await c.send(`${as} token`, 'POST', '/_operator/tokens', { token: OPERATOR_TOKEN, json: { email: userEmail(i) } });
    if (r?.status === 200) ({ access_token: token, refresh_token: refreshToken } = r.body);
    else token = null;
  };
  /** After a reset (or a 401), the world is new: forget what was made before it. */
  const fresh = async () => {
    seen = epoch();
    projects = [];
    viewerRole = null;
    await signIn();
  };
  const uuid = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

  const actions: Record<string, () => Promise<Answer | null>> = {
    async refresh() {
      if (!refreshToken) return null;
      const r = await c.send(`${as} refresh`, 'POST', '/oauth/token', { form: { grant_type: 'refresh_token', refresh_token: refreshToken } });
      if (r?.status === 200) ({ access_token: token, refresh_token: refreshToken } = r.body);
      return r;
    },
    async createProject() {
      const r = await c.send(`${as} create project`, 'POST', `${A2}/projects`, { token: token!, json: { name: `P${i}-${Math.floor(rnd() * 1e6)}`, subscriptionId: IDS.subscription } });
      if (r?.status === 201) projects.push({ id: uuid(r.body.id), root: uuid(r.body.rootWorkzoneId), zones: [] });
      return r;
    },
    async listProjects() {
      // Half the lists as Node's fetch asks (gzip), half uncompressed.
      return c.send(`${as} list projects`, 'GET', `${A2}/projects`, { token: token!, headers: rnd() < 0.5 ? { 'accept-encoding': 'identity' } : {} });
    },
    async getProject() {
      const p = pick(projects);
      return p ? c.send(`${as} get project`, 'GET', `${A2}/projects/${p.id}`, { token: token! }) : null;
    },
    async createZone() {
      const p = pick(projects);
      if (!p) return null;
      const parent = pick([p.root, ...p.zones])!;
      const r = await c.send(`${as} create zone`, 'POST', `${A2}/projects/${p.id}/workzones`, { token: token!, json: { name: `Z${Math.floor(rnd() * 1e6)}`, parentWorkzoneId: parent } });
      if (r?.status === 201) p.zones.push(uuid(r.body.id));
      return r;
    },
    async addMember() {
      const p = pick(projects);
      if (!p) return null;
      if (!viewerRole) {
        const roles = await c.send(`${as} roles`, 'GET', `${A2}/roles`, { token: token! });
        viewerRole = roles?.status === 200 ? uuid(roles.body.find((r: { name: string }) => r.name === 'Viewer')?.id ?? '') : null;
        if (!viewerRole) return roles;
      }
      const other = (i + 1 + Math.floor(rnd() * 3)) % 4;
      return c.send(`${as} add member`, 'POST', `${A2}/projects/${p.id}/members`, { token: token!, json: { members: { users: [{ user: userId(other), role: viewerRole }] } } });
    },
    async upload() {
      const p = pick(projects);
      if (!p) return null;
      const zone = pick([p.root, ...p.zones])!;
      const content = crypto.randomBytes(1 + Math.floor(rnd() * 4096));
      const item = { name: `scan-${Math.floor(rnd() * 1e6)}`, extension: 'e57', size: content.length, md5: md5(content).digest('hex') };
      const bulk = `${A2}/projects/${p.id}/workzones/${zone}/bulk-files`;
      const signed = await c.send(`${as} sign upload`, 'POST', bulk, { token: token!, json: [item] });
      if (signed?.status !== 200) return signed;
      const f = signed.body.files[0];
      const put = await c.send(`${as} put blob`, 'PUT', new URL(f.url).pathname + new URL(f.url).search, {
        body: content, headers: { 'content-md5': md5(content).digest('base64'), 'cache-control': 'max-age=2592000', 'x-ms-blob-type': 'BlockBlob', 'content-type': 'application/octet-stream' },
      });
      if (!put || put.status >= 300) return put;
      return c.send(`${as} register upload`, 'PUT', bulk, { token: token!, json: [{ ...item, blobName: f.blobName }] });
    },
    async cover() {
      const p = pick(projects);
      if (!p) return null;
      const png = Buffer.concat([PNG_HEAD, crypto.randomBytes(64 + Math.floor(rnd() * 512))]);
      const body = { name: 'cover', extension: 'png', size: png.length, md5: md5(png).digest('hex') };
      const signed = await c.send(`${as} sign cover`, 'POST', `${A2}/projects/${p.id}/cover`, { token: token!, json: body });
      if (signed?.status !== 200) return signed;
      const u = new URL(signed.body.file.url);
      const put = await c.send(`${as} put cover`, 'PUT', u.pathname + u.search, {
        body: png, headers: { 'content-md5': md5(png).digest('base64'), 'cache-control': 'max-age=2592000', 'x-ms-blob-type': 'BlockBlob', 'content-type': 'application/octet-stream' },
      });
      if (!put || put.status >= 300) return put;
      return c.send(`${as} register cover`, 'PUT', `${A2}/projects/${p.id}/cover`, { token: token!, json: body });
    },
    async tags() {
      const p = pick(projects);
      if (!p) return null;
      const lists = `${A2}/projects/${p.id}/tag-lists`;
      const list = await c.send(`${as} create tag list`, 'POST', lists, { token: token!, json: { workzoneId: pick([p.root, ...p.zones]), tagListType: '3d', name: `L${Math.floor(rnd() * 1e6)}` } });
      if (list?.status !== 201) return list;
      const id = uuid(list.body.id);
      const create = Array.from({ length: 1 + Math.floor(rnd() * 20) }, (_, k) => ({ data: { id: `t${k}`, boundingBox: [0, 0, 0, 1 + k, 1, 1] } }));
      const bulk = await c.send(`${as} tags bulk`, 'POST', `${lists}/${id}/tags/bulk`, { token: token!, json: { create } });
      if (bulk?.status !== 200) return bulk;
      return c.send(`${as} read tags`, 'GET', `${lists}/${id}/tags`, { token: token! });
    },
    async webhook() {
      return c.send(`${as} webhook`, 'POST', `${A2}/webhooks`, { token: token!, json: { url: receiverUrl, events: ['*'] } });
    },
    async api1() {
      const r = await c.send(`${as} isLogged`, 'GET', '/api/isLogged', { token: token! });
      if (r?.status !== 200) return r;
      return c.send(`${as} API 1 find`, 'GET', `/api/accounts/${IDS.account}/projects`, { token: token! });
    },
  };
  const names = Object.keys(actions);
  while (Date.now() < until) {
    if (seen !== epoch() || !token) await fresh();
    const name = pick(names)!;
    const r = token ? await actions[name]!() : null;
    if (r?.status === 401) await fresh();
    await sleep(rnd() * 300);
  }
}

let receiverUrl = '';

/** Runs the stress test; answers its report (failures empty when it passed). */
export async function runStress(o: StressOptions): Promise<StressReport> {
  const users = Math.max(4, o.users ?? 4);
  const report: StressReport = {
    seed: o.seed, engine: o.engine, seconds: o.seconds, requests: 0, statuses: {}, resets: 0, clockMoves: 0,
    longestMs: 0, longestRequest: '', readyz: { polls: 0, longestMs: 0, notReady: 0 }, failures: [],
  };
  const log = o.log ?? (() => {});
  const readyLimitMs = o.readyLimitMs ?? 2_000;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-stress-'));
  const seedFile = path.join(dir, 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify(seedDocument(users)));
  // A webhook receiver that answers at once, or slowly now and then.
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.end('ok'), Math.random() < 0.1 ? 2_000 : 0));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

  let engine: Sql;
  let dropDatabase = async () => {};
  if (o.engine === 'postgres') {
    if (!o.postgresUrl) throw new Error('the postgres engine needs a server URL (TEST_DATABASE_URL)');
    const fresh = await freshPostgresUrl(o.postgresUrl);
    engine = openPostgres(fresh.url, 10);
    dropDatabase = fresh.drop;
  } else {
    engine = await openPglite(path.join(dir, 'pglite'));
  }
  await migrate(engine);
  const port = await new Promise<number>((resolve) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    DATA_DIR: dir, PUBLIC_URL: base, PORT: String(port),
    SANDBOX: '1', OPERATOR_TOKEN, SEED_FILE: seedFile, LOG_LEVEL: 'silent', WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1',
    WEBHOOKS_RELAY_INTERVAL: '1', TASK_PERIODS: 'signing-keys=1,sandbox-clock=1,upload-sweeper=1,janitor=1',
    DB_WAIT_TIMEOUT: '5', DB_TRANSACTION_TIMEOUT: '10',
  });
  let core: Core | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    core = await compose(config, { sql: engine });
    const doc = await core.loadSeedFile();
    if (doc) await core.applySeed(doc);
    app = await buildApp(core);
    await app.listen({ host: '127.0.0.1', port });
    const c = new Client(base, report);
    const until = Date.now() + o.seconds * 1000;
    let epoch = 0;
    log(`stress: seed ${o.seed}, ${o.engine}, ${users} users, ${o.seconds} s, ${base}`);

    const operator = async () => {
      const rnd = seededRandom(o.seed * 104_729);
      while (Date.now() < until) {
        await sleep(1_000 + rnd() * 3_000);
        if (Date.now() >= until) break;
        if (rnd() < 0.6) {
          const r = await c.send('operator reset', 'POST', '/_operator/reset', { token: OPERATOR_TOKEN });
          if (r?.status !== 200) continue;
          epoch++;
          report.resets++;
          for (const broken of await invariants(engine, users, false)) report.failures.push(`after reset ${report.resets}: ${broken}`);
        } else {
          const r = await c.send('operator clock', 'POST', '/_operator/clock', { token: OPERATOR_TOKEN, json: { advanceSeconds: Math.floor(30 + rnd() * 7_200) } });
          if (r?.status === 200) report.clockMoves++;
        }
      }
    };
    const poller = async () => {
      while (Date.now() < until) {
        const started = performance.now();
        const r = await c.send('readyz', 'GET', '/readyz');
        const ms = performance.now() - started;
        report.readyz.polls++;
        report.readyz.longestMs = Math.max(report.readyz.longestMs, Math.round(ms));
        if (ms > readyLimitMs) report.failures.push(`/readyz answered after ${Math.round(ms)} ms (more than ${readyLimitMs} ms)`);
        if (r && r.status !== 200) {
          report.readyz.notReady++;
          if (!r.body?.reason) report.failures.push(`/readyz ${r.status} without a reason`);
        }
        await sleep(300 + Math.random() * 400);
      }
    };
    await Promise.all([
      ...Array.from({ length: users }, (_, i) => userLoop(c, i, o.seed, until, () => epoch)),
      operator(),
      poller(),
    ]);
    // Not ready now and then under load is truthful; not ready for long is not.
    if (report.readyz.notReady > Math.max(2, report.readyz.polls * 0.02)) {
      report.failures.push(`/readyz answered 503 to ${report.readyz.notReady} of ${report.readyz.polls} polls`);
    }
    // Quiet now: the node must be ready, and the data whole.
    await sleep(1_500);
    const ready = await c.send('final readyz', 'GET', '/readyz');
    if (ready?.status !== 200) report.failures.push(`/readyz after the run: ${ready?.status} ${JSON.stringify(ready?.body)}`);
    for (const broken of await invariants(engine, users, true, core)) report.failures.push(`at the end: ${broken}`);
    log(`stress: ${report.requests} requests, ${report.resets} resets, ${report.clockMoves} clock moves, longest ${report.longestMs} ms (${report.longestRequest}), ${report.failures.length} failures`);
    return report;
  } finally {
    await app?.close();
    await core?.close();
    await engine.close();
    await dropDatabase();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What must hold whatever ran: the seed applied once, no row pointing at nothing. */
async function invariants(sql: Sql, users: number, quiet: boolean, core?: Core): Promise<string[]> {
  const broken: string[] = [];
  const count = async (what: string, text: string, params: unknown[] = []) => {
    const [row] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${text}) q`, params);
    return { what, n: row!.n };
  };
  const checks = [
    [await count('accounts named Stress', `SELECT 1 FROM accounts WHERE name = 'Stress'`), 1],
    [await count('seeded users', `SELECT 1 FROM users WHERE email LIKE '%@stress.test'`), users],
    [await count('subscriptions of the account', 'SELECT 1 FROM subscriptions WHERE account_id = $1', [IDS.account]), 1],
    [await count('projects without their root zone', 'SELECT 1 FROM projects p WHERE NOT EXISTS (SELECT 1 FROM workzones w WHERE w.id = p.root_workzone_id AND w.project_id = p.id)'), 0],
    [await count('project members who are no user', `SELECT 1 FROM project_members m WHERE m.member_type = 'user' AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = m.member_id)`), 0],
    [await count('project members that are no group', `SELECT 1 FROM project_members m WHERE m.member_type = 'group' AND NOT EXISTS (SELECT 1 FROM groups g WHERE g.id = m.member_id)`), 0],
    [await count('work zones without their own ancestry row', 'SELECT 1 FROM workzones w WHERE NOT EXISTS (SELECT 1 FROM workzone_ancestry a WHERE a.ancestor_id = w.id AND a.descendant_id = w.id)'), 0],
  ] as const;
  for (const [{ what, n }, expected] of checks) if (n !== expected) broken.push(`${what}: ${n}, expected ${expected}`);
  if (quiet && core) {
    // Every file's object is in the store (checked when nothing writes any more).
    const files = await sql.query<{ project_id: string; blob_name: string }>('SELECT project_id, blob_name FROM files');
    for (const f of files) {
      const stat = await core.objectStore.stat(blobKey(f.project_id, f.blob_name));
      if (!stat) broken.push(`file ${f.blob_name} of project ${f.project_id} has no stored object`);
    }
  }
  return broken;
}
