// The servers a scenario can target. Each is started once per run, in its own child
// process, and stopped when the scenarios that use it are done.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, registerCleanup, startChild, startIpcChild, type Child } from './children.ts';
import { benchServerUrl, createTempDatabase, redactUrl, type TempDatabase } from './postgres.ts';
import type { FromChild, PointSelectRound, ToChild } from './point-select.ts';
import { SERVICE_PROCESS_ENV } from '../src/runtime-env.ts';

/** BENCH_SERVER_ENV: settings to try on a bench's service (a JSON object of variables; npm run bench:compare, bench/multipart.ts). */
export const triedServerEnv = (): Record<string, string> =>
  (process.env.BENCH_SERVER_ENV ? (JSON.parse(process.env.BENCH_SERVER_ENV) as Record<string, string>) : {});

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A child process whose work is measured. */
export interface RunningProcess {
  kind: ServerKind;
  /** The measured process (its CPU time is reported). */
  pid: number;
  /** Where the data lives, for the report. */
  description: string;
  stop(): Promise<void>;
}

/** An HTTP server, measured with autocannon. */
export interface RunningServer extends RunningProcess {
  url: string;
}

/** A database driver measuring itself (bench/point-select.ts): no HTTP in between. */
export interface PointSelectDriver extends RunningProcess {
  measure(seconds: number): Promise<PointSelectRound>;
}

/** A running Scanbase server with its operator API at hand. */
export interface ScanbaseServer extends RunningServer {
  operatorToken: string;
  /** Calls the operator API; throws unless it answers 2xx. */
  operator<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
  /** A fresh access token for a seeded user (POST /_operator/tokens). */
  accessTokenFor(email: string): Promise<string>;
  /** What POST /_operator/seed answered for BENCH_SEED (the ids it created). */
  seeded: SeedAnswer;
}

export interface SeedAnswer {
  users: { email: string; id: string }[];
  accounts: { name: string; id: string; roles: { name: string; id: string }[] }[];
}

/**
 * The `-large` servers hold the 1,000-zone world in a process of its own: what those
 * scenarios leave in a process (a larger heap, code optimised for their shapes) made the
 * cheap scenarios sharing it cost up to 80% more CPU per request. The 1,000-project list
 * (about 1 MB per answer) has its own `-list` servers for the same reason: sharing one, the
 * one-zone read cost 549–628 µs of CPU per request on PGlite against 324 µs alone.
 */
export type ServerKind =
  | 'bare'
  | 'scanbase-pglite'
  | 'scanbase-postgres'
  | 'scanbase-pglite-large'
  | 'scanbase-postgres-large'
  | 'scanbase-pglite-list'
  | 'scanbase-postgres-list'
  | 'scanbase-pglite-sandbox'
  | 'scanbase-pglite-journal'
  | 'point-select-pglite'
  | 'point-select-postgres';
type ScanbaseKind = Extract<ServerKind, `scanbase-${string}`>;
const onPostgres = (kind: ServerKind) =>
  kind === 'scanbase-postgres' || kind === 'scanbase-postgres-large' || kind === 'scanbase-postgres-list' || kind === 'point-select-postgres';

/** The user every Scanbase server is seeded with. */
export const BENCH_USER = { email: 'bench@scanbase.test', password: 'bench-password-1', firstName: 'Bench', lastName: 'User' };
export const BENCH_SEED = {
  users: [BENCH_USER],
  accounts: [
    {
      name: 'Bench',
      owner: BENCH_USER.email,
      subscriptions: [{ name: 'Bench subscription', scanCapacity: 500, tagCapacity: 200000, geoImageCapacity: 500 }],
      // Besides the three base roles every account has.
      roles: [
        { name: 'Surveyor', description: 'Captures and uploads', color: '#117a8b', legacyPermissions: ['view3d', 'upload', 'download'] },
        { name: 'Annotator', legacyPermissions: ['view3d', 'annotate', 'measure', 'view_annotation'] },
        { name: 'Asset keeper', legacyPermissions: ['view_asset', 'create_asset', 'view_savedview', 'manage_savedview'] },
      ],
    },
  ],
};

async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await res.arrayBuffer();
  return res.ok;
}

export async function startBare(): Promise<RunningServer> {
  const port = await freePort();
  const child = await startChild({
    name: 'bare node:http server',
    args: ['--import', 'tsx', path.join(ROOT, 'bench/bare-server.ts')],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port) },
    cwd: ROOT,
    port,
    ready: (url) => httpOk(`${url}/`),
    timeoutMs: 20_000,
  });
  return { kind: 'bare', url: child.url, pid: child.pid, description: `node:http, pid ${child.pid}`, stop: child.stop };
}

/**
 * The sandbox module's rows (issue 32, docs/sandbox.md): every server runs with the operator
 * token (the bench seeds through it) and no journal (JOURNAL_SIZE=0), so the request gate's
 * counter is in every row; `-sandbox` adds SANDBOX=1 with an empty fault-rule list (its
 * preParsing hook), `-journal` the request journal (1,000 entries).
 */
const KIND_ENV: Partial<Record<ScanbaseKind, Record<string, string>>> = {
  'scanbase-pglite-sandbox': { SANDBOX: '1' },
  'scanbase-pglite-journal': { JOURNAL_SIZE: '1000' },
};

async function startScanbase(kind: ScanbaseKind): Promise<ScanbaseServer> {
  const port = await freePort();
  const operatorToken = crypto.randomBytes(24).toString('base64url');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-bench-'));
  let db: TempDatabase | undefined;
  const cleanup = registerCleanup(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await db?.drop();
  });
  let databaseUrl = 'memory:';
  let description = 'in-memory PGlite';
  if (onPostgres(kind)) {
    const serverUrl = benchServerUrl();
    try {
      if (!serverUrl) throw new Error('BENCH_DATABASE_URL (or TEST_DATABASE_URL) is not set');
      db = await createTempDatabase(serverUrl);
    } catch (e) {
      await cleanup();
      throw e;
    }
    databaseUrl = db.url;
    description = `PostgreSQL ${redactUrl(db.url)}`;
  }

  let child: Child;
  try {
    child = await startChild({
      name: `Scanbase (${description})`,
      args: [...(process.env.BENCH_SERVER_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_SERVER_PROF] : []), path.join(ROOT, 'src/main.ts')],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        OPERATOR_TOKEN: operatorToken,
        LOG_LEVEL: 'warn',
        JOURNAL_SIZE: '0',
        ...SERVICE_PROCESS_ENV, // as npm start and the image run it
        // The rate limits stay on (their cost is measured) but never refuse the load.
        RATE_LIMIT_USER_RATE: '1000000',
        RATE_LIMIT_USER_BURST: '10000000',
        RATE_LIMIT_ADDRESS_RATE: '1000000',
        RATE_LIMIT_ADDRESS_BURST: '10000000',
        // The webhook scenarios' receiver is the bench process, on loopback.
        WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1',
        WEBHOOKS_TARGET_PORTS: 'any',
        // The one-zone read's cache, when the run names a size (0: off; bench/run.ts).
        ...(process.env.WORKZONE_CACHE_ENTRIES !== undefined ? { WORKZONE_CACHE_ENTRIES: process.env.WORKZONE_CACHE_ENTRIES } : {}),
        // The project lists' cache likewise (0: every list is built, serialised and sent uncompressed).
        ...(process.env.PROJECT_LIST_CACHE_PROJECTS !== undefined ? { PROJECT_LIST_CACHE_PROJECTS: process.env.PROJECT_LIST_CACHE_PROJECTS } : {}),
        ...KIND_ENV[kind],
        // SANDBOX also turns the rate limits' defaults off; the rows keep them on, as the others.
        ...(kind === 'scanbase-pglite-sandbox' ? { RATE_LIMIT_USER_RATE: '1000000', RATE_LIMIT_ADDRESS_RATE: '1000000' } : {}),
        // Settings to try on this tree's servers (npm run bench:compare): a JSON object of variables.
        ...triedServerEnv(),
      },
      cwd: ROOT,
      port,
      ready: (url) => httpOk(`${url}/healthz`),
    });
  } catch (e) {
    await cleanup();
    throw e;
  }

  const operator = async <T>(method: 'GET' | 'POST', p: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${child.url}/_operator${p}`, {
      method,
      headers: {
        authorization: `Bearer ${operatorToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} /_operator${p} answered ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  };

  const server: ScanbaseServer = {
    kind,
    url: child.url,
    pid: child.pid,
    description,
    operatorToken,
    operator,
    seeded: { users: [], accounts: [] },
    async accessTokenFor(email) {
      const pair = await operator<{ access_token: string }>('POST', '/tokens', { email });
      return pair.access_token;
    },
    async stop() {
      try {
        await child.stop();
      } finally {
        await cleanup();
      }
    },
  };
  try {
    server.seeded = await operator<SeedAnswer>('POST', '/seed', BENCH_SEED);
  } catch (e) {
    await server.stop();
    throw e;
  }
  return server;
}

/** The point-select driver in its own process, with CONCURRENCY = the autocannon connection count. */
async function startPointSelect(kind: 'point-select-pglite' | 'point-select-postgres', concurrency: number): Promise<PointSelectDriver> {
  let db: TempDatabase | undefined;
  const cleanup = registerCleanup(async () => {
    await db?.drop();
  });
  try {
    if (kind === 'point-select-postgres') {
      const serverUrl = benchServerUrl();
      if (!serverUrl) throw new Error('BENCH_DATABASE_URL (or TEST_DATABASE_URL) is not set');
      db = await createTempDatabase(serverUrl);
    }
    const { child, ready } = await startIpcChild<ToChild, FromChild>({
      name: `point-select (${kind})`,
      script: path.join(ROOT, 'bench/point-select.ts'),
      execArgv: ['--import', 'tsx'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ENGINE: kind === 'point-select-pglite' ? 'pglite' : 'postgres',
        DATABASE_URL: db?.url,
        CONCURRENCY: String(concurrency),
      },
      cwd: ROOT,
    });
    if (ready.type !== 'ready') throw new Error(`point-select (${kind}): ${ready.type === 'error' ? ready.message : 'no ready message'}`);
    return {
      kind,
      pid: child.pid,
      description: `${ready.description}, ${concurrency} concurrent queries${db ? ` on ${redactUrl(db.url)}` : ''}, pid ${child.pid}`,
      async measure(seconds) {
        const answer = await child.request({ type: 'run', seconds });
        if (answer.type === 'error') throw new Error(answer.message);
        if (answer.type !== 'result') throw new Error(`point-select (${kind}): unexpected ${answer.type} message`);
        return answer;
      },
      async stop() {
        try {
          await child.stop();
        } finally {
          await cleanup();
        }
      },
    };
  } catch (e) {
    await cleanup();
    throw e;
  }
}

export const startServer = {
  bare: startBare,
  'scanbase-pglite': () => startScanbase('scanbase-pglite'),
  'scanbase-postgres': () => startScanbase('scanbase-postgres'),
  'scanbase-pglite-large': () => startScanbase('scanbase-pglite-large'),
  'scanbase-postgres-large': () => startScanbase('scanbase-postgres-large'),
  'scanbase-pglite-list': () => startScanbase('scanbase-pglite-list'),
  'scanbase-postgres-list': () => startScanbase('scanbase-postgres-list'),
  'scanbase-pglite-sandbox': () => startScanbase('scanbase-pglite-sandbox'),
  'scanbase-pglite-journal': () => startScanbase('scanbase-pglite-journal'),
  'point-select-pglite': (concurrency: number) => startPointSelect('point-select-pglite', concurrency),
  'point-select-postgres': (concurrency: number) => startPointSelect('point-select-postgres', concurrency),
} satisfies Record<ServerKind, (concurrency: number) => Promise<RunningProcess>>;

export const isPointSelectDriver = (p: RunningProcess): p is PointSelectDriver => 'measure' in p;

/** Why a server cannot run here, or null when it can. */
export function unavailable(kind: ServerKind): string | null {
  if (onPostgres(kind) && !benchServerUrl()) {
    return 'set BENCH_DATABASE_URL or TEST_DATABASE_URL';
  }
  return null;
}
