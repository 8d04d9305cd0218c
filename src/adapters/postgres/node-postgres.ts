// node-postgres engine: a pool; each transaction holds one client from BEGIN to COMMIT.
import pg from 'pg';
import type { Sql } from './sql.ts';

type Client = pg.Pool | pg.PoolClient;

function wrap(c: Client, pool: pg.Pool, inTx: boolean): Sql {
  return {
    engine: 'postgres',
    async query<R>(text: string, params?: unknown[]) {
      const res = await c.query(text, params as unknown[] | undefined);
      return res.rows as R[];
    },
    async exec(text: string) {
      await c.query(text);
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      if (inTx) return fn(this);
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client, pool, true));
        await client.query('COMMIT');
        return result;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

export function openPostgres(url: string, max = 10): Sql {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client losing its server must not crash the process.
  pool.on('error', () => {});
  return wrap(pool, pool, false);
}
