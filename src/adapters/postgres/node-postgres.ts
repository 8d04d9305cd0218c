// node-postgres engine: a pool; each transaction holds one client from BEGIN to COMMIT.
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { paramText, type QueryOptions, type Sql } from './sql.ts';
import { binaryCopyReader } from './copy-binary.ts';
import { errorFields, silentLogger, type Logger } from '../../core/ports/telemetry.ts';

type Client = pg.Pool | pg.PoolClient;

/**
 * LISTEN on a dedicated connection. When the connection drops it reconnects and
 * delivers '*' (messages may have been missed: listeners should drop what they cached).
 */
async function listen(url: string, channel: string, onMessage: (payload: string) => void, logger: Logger) {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const reconnect = () => {
    retry = setTimeout(() => {
      connect()
        .then(() => {
          logger.info({ channel }, 'LISTEN connection restored');
          onMessage('*');
        })
        .catch((err: unknown) => {
          logger.error({ channel, ...errorFields(err) }, 'LISTEN reconnect failed; retrying');
          if (!closed) reconnect();
        });
    }, 500);
    retry.unref();
  };
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (m) => {
      if (m.channel === channel && m.payload !== undefined) onMessage(m.payload);
    });
    // Lost once, by an error or by the server ending it (a terminated backend may only
    // end the connection): a lost client is never ended again (end() would wait for ever).
    let lost = false;
    const onLost = (e: unknown) => {
      if (lost || closed) return;
      lost = true;
      if (client !== c) return; // still connecting: connect() rejects and its caller retries
      client = null;
      logger.warn({ channel, ...errorFields(e) }, 'LISTEN connection lost; reconnecting');
      reconnect();
    };
    c.on('error', onLost);
    c.on('end', () => onLost(new Error('the server closed the connection')));
    try {
      await c.connect();
      await c.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
    } catch (e) {
      lost = true;
      throw e;
    }
    client = c;
  };
  await connect();
  return async () => {
    closed = true;
    clearTimeout(retry);
    await client?.end().catch((e: unknown) => logger.warn({ channel, ...errorFields(e) }, 'closing the LISTEN connection failed'));
  };
}

/** `text` with its placeholders ($1…) replaced by its parameters as quoted literals (COPY takes no parameters). */
function inlined(text: string, params: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= params.length) throw new RangeError(`no parameter $${n}`);
    const v = paramText(params[i]);
    return v === null ? 'NULL' : pg.escapeLiteral(v);
  });
}

function wrap(c: Client, pool: pg.Pool, inTx: boolean, url: string, logger: Logger): Sql {
  return {
    engine: 'postgres',
    async query<R>(text: string, params?: unknown[], opts?: QueryOptions) {
      // node-postgres keeps a named statement per connection and parses it on its first use there.
      const res = opts?.name
        ? await c.query({ name: opts.name, text, values: params })
        : await c.query(text, params as unknown[] | undefined);
      return res.rows as R[];
    },
    async queryTexts(text: string, params: unknown[], onRow: (values: (Buffer | null)[]) => void) {
      const copy = `COPY (${inlined(text, params)}) TO STDOUT (FORMAT binary)`;
      // A pool lends one client for the COPY (it holds the connection until CopyDone).
      const client = inTx ? (c as pg.PoolClient) : await pool.connect();
      try {
        await new Promise<void>((resolve, reject) => {
          let failure: unknown;
          const reader = binaryCopyReader(onRow);
          const stream = client.query(copyTo(copy));
          // After a failure the rest is read and dropped: the connection must reach the end.
          stream.on('data', (chunk: Buffer) => {
            if (failure !== undefined) return;
            try {
              reader.push(chunk);
            } catch (e) {
              failure = e ?? new Error('onRow failed');
            }
          });
          stream.on('error', reject);
          stream.on('end', () => {
            if (failure === undefined) {
              try {
                reader.end();
              } catch (e) {
                failure = e;
              }
            }
            if (failure === undefined) resolve();
            else reject(failure);
          });
        });
      } finally {
        if (!inTx) (client as pg.PoolClient).release();
      }
    },
    async exec(text: string) {
      await c.query(text);
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      if (inTx) return fn(this);
      const client = await pool.connect();
      // A connection whose ROLLBACK failed is in an unknown state: the pool destroys it
      // (release with the error) instead of handing it to the next transaction.
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client, pool, true, url, logger));
        await client.query('COMMIT');
        return result;
      } catch (e) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackFailure) {
          broken = rollbackFailure as Error;
          logger.warn(errorFields(rollbackFailure), 'ROLLBACK failed: the connection is discarded');
        }
        throw e;
      } finally {
        client.release(broken);
      }
    },
    listen: (channel, onMessage) => listen(url, channel, onMessage, logger),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await pool.end();
    },
  };
}

/** The server-side deadlines of every pooled connection (deadlines.ts bounds the rest). */
export interface PostgresDeadlines {
  /** statement_timeout, ms: a statement running longer is cancelled (57014). */
  statementMs: number;
  /** idle_in_transaction_session_timeout, ms: a transaction idle this long is ended by the server. */
  idleInTransactionMs: number;
}

export const DEFAULT_POSTGRES_DEADLINES: PostgresDeadlines = { statementMs: 30_000, idleInTransactionMs: 65_000 };

export function openPostgres(url: string, max = 10, logger: Logger = silentLogger, deadlines = DEFAULT_POSTGRES_DEADLINES): Sql {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    statement_timeout: deadlines.statementMs,
    idle_in_transaction_session_timeout: deadlines.idleInTransactionMs,
    // A server that does not answer the connection attempt: fail instead of waiting for TCP.
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
  });
  // An idle client losing its server must not crash the process; the pool replaces it.
  pool.on('error', (e) => logger.warn(errorFields(e), 'an idle database connection failed'));
  return wrap(pool, pool, false, url, logger);
}
