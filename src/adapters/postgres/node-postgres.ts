// node-postgres engine: a pool; each transaction holds one client from BEGIN to COMMIT.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { paramText, type QueryOptions, type Sql, type Unlisten } from './sql.ts';
import type { ListenerState } from '../../core/ports/events.ts';
import { binaryCopyReader } from './copy-binary.ts';
import { errorFields, silentLogger, type Logger } from '../../core/ports/telemetry.ts';

type Client = pg.Pool | pg.PoolClient;

/**
 * The LISTEN connection's heartbeat (docs/operations.md "Cross-node invalidation"): every
 * `everyMs` it NOTIFYs a channel only it listens to, and the notification must come back
 * on it within `deadlineMs`; otherwise the connection is taken as dead (a silent drop: no
 * FIN, no RST, a NAT or firewall forgetting it), closed and replaced.
 */
export const LISTEN_HEARTBEAT = { everyMs: 10_000, deadlineMs: 5_000 };

const quotedName = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * LISTEN on a dedicated connection, with TCP keepalive and a heartbeat (LISTEN_HEARTBEAT).
 * When the connection drops, or a heartbeat does not come back in time, it reconnects and
 * delivers '*' (messages may have been missed: listeners should drop what they cached).
 * The answer's `state()` says whether it listens (GET /readyz, GET /metrics).
 */
export async function listen(
  url: string, channel: string, onMessage: (payload: string) => void, logger: Logger, heartbeat = LISTEN_HEARTBEAT,
): Promise<Unlisten> {
  /** The live connection, and how to give it up. */
  let current: { client: pg.Client; lose: (e: unknown) => void } | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const status: ListenerState = { state: 'reconnecting', since: new Date(), lastHeartbeatAt: null, reconnects: 0 };
  const enter = (state: ListenerState['state']) => {
    if (status.state !== state) Object.assign(status, { state, since: new Date() });
  };
  /** A channel this connection alone listens to, for its heartbeat. */
  const beatChannel = `scanbase_heartbeat_${randomUUID().replace(/-/g, '')}`;
  /** The heartbeat awaited, by its payload. */
  let awaited: { payload: string; came: () => void } | null = null;
  let beats = 0;
  const reconnect = () => {
    enter('reconnecting');
    retry = setTimeout(() => {
      connect()
        .then(() => {
          status.reconnects++;
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
    const c = new pg.Client({ connectionString: url, keepAlive: true, keepAliveInitialDelayMillis: heartbeat.everyMs });
    c.on('notification', (m) => {
      if (m.channel === channel && m.payload !== undefined) onMessage(m.payload);
      else if (m.channel === beatChannel && awaited && m.payload === awaited.payload) awaited.came();
    });
    // Lost once, by an error, by the server ending it (a terminated backend may only end the
    // connection) or by a missed heartbeat: a lost client is never ended again (end() would
    // wait for ever on a dead socket); its socket is destroyed.
    let lost = false;
    const onLost = (e: unknown) => {
      if (lost || closed) return;
      lost = true;
      c.connection.stream.destroy();
      if (current?.client !== c) return; // still connecting: connect() rejects and its caller retries
      current = null;
      awaited = null;
      logger.warn({ channel, ...errorFields(e) }, 'LISTEN connection lost; reconnecting');
      reconnect();
    };
    c.on('error', onLost);
    c.on('end', () => onLost(new Error('the server closed the connection')));
    try {
      await c.connect();
      await c.query(`LISTEN ${quotedName(channel)}`);
      await c.query(`LISTEN ${quotedName(beatChannel)}`);
    } catch (e) {
      lost = true;
      c.connection.stream.destroy();
      throw e;
    }
    current = { client: c, lose: onLost };
    enter('listening');
  };
  /** One heartbeat: a NOTIFY on this connection that must come back on it before the deadline. */
  const beat = () => {
    const live = current;
    if (!live || awaited || closed) return;
    const payload = String(++beats);
    let deadline: NodeJS.Timeout | undefined;
    new Promise<void>((resolve, reject) => {
      awaited = { payload, came: resolve };
      deadline = setTimeout(() => reject(new Error(`LISTEN heartbeat not back within ${heartbeat.deadlineMs} ms`)), heartbeat.deadlineMs);
      deadline.unref();
      live.client.query('SELECT pg_notify($1, $2)', [beatChannel, payload]).catch(reject);
    }).then(
      () => {
        status.lastHeartbeatAt = new Date();
      },
      (e: unknown) => live.lose(e),
    ).finally(() => {
      clearTimeout(deadline);
      if (awaited?.payload === payload) awaited = null;
    });
  };
  await connect();
  const beating = setInterval(beat, heartbeat.everyMs);
  beating.unref();
  return Object.assign(
    async () => {
      closed = true;
      clearTimeout(retry);
      clearInterval(beating);
      enter('closed');
      await current?.client.end().catch((e: unknown) => logger.warn({ channel, ...errorFields(e) }, 'closing the LISTEN connection failed'));
    },
    { state: (): ListenerState => ({ ...status }) },
  );
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
