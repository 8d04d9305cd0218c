// The database driver's own ceiling: point selects (`SELECT … WHERE id = $1` on a small
// table) issued by CONCURRENCY loops at once, with nothing else in the process. Run as a
// child of the benchmark (IPC): it answers 'ready' once the table exists and the
// connections are open, then measures each time it is asked to.
//
// ENGINE=pglite: in-process PGlite in memory (one connection; concurrent queries queue).
// ENGINE=postgres: a node-postgres pool of CONCURRENCY connections on DATABASE_URL, opened
// (untimed) before each round and closed after it, so that it does not hold CONCURRENCY
// server connections while the other scenarios run.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';

export interface PointSelectRound {
  queries: number;
  seconds: number;
  /** One latency per query, in milliseconds. */
  latenciesMs: Float64Array;
}

export type ToChild = { type: 'run'; seconds: number } | { type: 'stop' };
export type FromChild = { type: 'ready'; description: string } | ({ type: 'result' } & PointSelectRound) | { type: 'error'; message: string };

const ROWS = 1000;
const SELECT = 'SELECT id, name, created_at FROM bench_points WHERE id = $1';

interface Engine {
  /** Before a round, untimed: opens what the round uses. */
  open(): Promise<void>;
  query(id: number): Promise<unknown>;
  exec(text: string): Promise<void>;
  /** After a round. */
  release(): Promise<void>;
  close(): Promise<void>;
  description: string;
}

async function open(engine: string, concurrency: number): Promise<Engine> {
  if (engine === 'pglite') {
    const db = await PGlite.create();
    return {
      description: 'PGlite in process, in memory',
      open: async () => {},
      query: (id) => db.query(SELECT, [id]),
      exec: async (text) => void (await db.exec(text)),
      release: async () => {},
      close: () => db.close(),
    };
  }
  if (engine === 'postgres') {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set');
    let pool: pg.Pool | null = null;
    const current = () => {
      if (!pool) {
        pool = new pg.Pool({ connectionString: url, max: concurrency });
        pool.on('error', () => {}); // an idle client losing its server must not end the run
      }
      return pool;
    };
    const release = async () => {
      const p = pool;
      pool = null;
      await p?.end();
    };
    return {
      description: `node-postgres pool of ${concurrency}`,
      async open() {
        // Every connection at once, each with the statement run once.
        const p = current();
        const clients = await Promise.all(Array.from({ length: concurrency }, () => p.connect()));
        await Promise.all(clients.map((c) => c.query(SELECT, [1])));
        for (const c of clients) c.release();
      },
      query: (id) => current().query(SELECT, [id]),
      exec: async (text) => void (await current().query(text)),
      release,
      close: release,
    };
  }
  throw new Error(`ENGINE=${engine}: expected pglite or postgres`);
}

async function run(db: Engine, concurrency: number, seconds: number): Promise<PointSelectRound> {
  let latencies = new Float64Array(1 << 16);
  let queries = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let id = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      id = (id % ROWS) + 1;
      const t0 = performance.now();
      await db.query(id);
      if (queries === latencies.length) {
        const next = new Float64Array(latencies.length * 2);
        next.set(latencies);
        latencies = next;
      }
      latencies[queries++] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { queries, seconds: (performance.now() - started) / 1000, latenciesMs: latencies.slice(0, queries) };
}

async function main(): Promise<void> {
  const send = (m: FromChild) => process.send!(m);
  const concurrency = Number(process.env.CONCURRENCY ?? 50);
  const db = await open(process.env.ENGINE ?? '', concurrency);
  await db.exec(
    `CREATE TABLE IF NOT EXISTS bench_points (id integer PRIMARY KEY, name text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
     INSERT INTO bench_points (id, name) SELECT i, 'point ' || i FROM generate_series(1, ${ROWS}) AS i ON CONFLICT DO NOTHING;
     ANALYZE bench_points;`,
  );
  await db.release();
  const stop = async () => {
    await db.close().catch(() => {});
    process.exit(0);
  };
  process.on('message', (m: ToChild) => {
    if (m.type === 'stop') return void stop();
    const round = async () => {
      await db.open();
      await run(db, concurrency, 0.1); // warms the code paths, untimed
      try {
        return await run(db, concurrency, m.seconds);
      } finally {
        await db.release();
      }
    };
    round().then(
      (r) => send({ type: 'result', ...r }),
      (e: unknown) => send({ type: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
  });
  process.on('disconnect', () => void stop());
  process.once('SIGTERM', () => void stop());
  send({ type: 'ready', description: db.description });
}

main().catch((e: unknown) => {
  console.error('point-select:', e);
  process.exit(1);
});
