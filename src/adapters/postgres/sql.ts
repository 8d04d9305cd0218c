// The small SQL interface every repository is written against: one dialect
// (the PostgreSQL 15 subset), two engines (PGlite, node-postgres).
import type { ListenerState } from '../../core/ports/events.ts';

export interface Sql {
  readonly engine: 'pglite' | 'postgres';
  query<R = Record<string, unknown>>(text: string, params?: unknown[], opts?: QueryOptions): Promise<R[]>;
  /**
   * Runs a query whose columns are all text (text, varchar or json), handing each row on as
   * it arrives, as its values' UTF-8 bytes (null for NULL): for callers that send text on as
   * bytes, with nothing decoded into a string and encoded back. node-postgres: `COPY … TO
   * STDOUT` in binary (a text value's binary form is its bytes; the parameters are inlined as
   * quoted literals, so `text` may hold `$` only in its placeholders); PGlite: the protocol's
   * own DataRow bytes, once the query is done. An exception from `onRow` fails the call once
   * the query has ended.
   */
  queryTexts(text: string, params: unknown[], onRow: (values: (Buffer | null)[]) => void): Promise<void>;
  /** Runs several statements (migrations); no parameters. */
  exec(text: string): Promise<void>;
  /**
   * `COPY source TO … (FORMAT binary)`: a table's rows (`source` is `"table" ("col", …)` or a
   * parenthesised query) in PostgreSQL's binary COPY format, handed on chunk by chunk;
   * `onChunk` is awaited (the caller sets the pace). node-postgres: `TO STDOUT` on the
   * connection in hand (the transaction's); PGlite: `TO '/dev/blob'`, the whole output in one
   * chunk (PGlite's own memory holds it anyway). Snapshots (src/adapters/snapshots).
   */
  copyOut(source: string, onChunk: (chunk: Uint8Array) => Promise<void> | void): Promise<void>;
  /**
   * `COPY target FROM … (FORMAT binary)` with `data` as its input (`target`: `"table" ("col", …)`).
   * node-postgres: streamed to `FROM STDIN`; PGlite: gathered into one Blob, then `FROM '/dev/blob'`.
   */
  copyIn(target: string, data: AsyncIterable<Uint8Array>): Promise<void>;
  /**
   * Runs fn in a transaction; inside it, use only `tx`: a call on the outer handle from inside
   * is refused (deadlines.ts; on PGlite it would wait for ever). `deadlineMs` overrides the
   * transaction deadline (0: none, for migrations).
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>, opts?: { deadlineMs?: number }): Promise<T>;
  /** LISTEN on a channel (PostgreSQL: a dedicated connection that reconnects). Answers an unlisten function. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<Unlisten>;
  close(): Promise<void>;
  /** node-postgres: the pool's connections (GET /metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * PGlite on disk only: its data directory as files, for the snapshots' fast path
   * (docs/decisions.md "Snapshots"). `copyTo` writes a consistent copy (a CHECKPOINT, then
   * the files, no statement running meanwhile, without the WAL segments before the
   * checkpoint); `replaceWith` closes the database, puts a copy of `source` in its
   * directory's place (or `source` itself with `move`) and opens it again (the old directory
   * back if the new one does not open). Statements waiting on the old database when it closes fail.
   */
  dataDirectory?: { copyTo(dest: string): Promise<void>; replaceWith(source: string, opts?: { move?: boolean }): Promise<void> };
}

/** Ends a LISTEN; `state` (PostgreSQL's dedicated connection) tells whether it listens now. */
export type Unlisten = (() => Promise<void>) & { state?: () => ListenerState };

export interface QueryOptions {
  /**
   * A named prepared statement: parsed (and, after PostgreSQL's five custom plans, planned)
   * once per connection, then only bound and executed. Planning was most of the cost of
   * the hot one-row reads (docs/performance.md). For a read issued per request whose text
   * is fixed (one name, one text: a name is never reused for another text) and whose plan
   * does not depend on its values (not for `= ANY($1)` lists of any length).
   */
  name?: string;
  /** The longest wait for a connection, ms, when shorter than the service's (the readiness probe's ping). */
  waitMs?: number;
}

/** A scalar parameter of queryTexts as its text (a Date as its ISO instant). */
export function paramText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object' || typeof v === 'function' || typeof v === 'symbol') throw new TypeError('queryTexts takes scalar parameters');
  return String(v);
}

/**
 * The rows of `select` as the objects `query` would answer, read as one JSON text (one row,
 * one column, one JSON.parse) instead of field by field: for lists of a thousand rows,
 * whose decoding column by column was most of a project list's cost on PGlite (its
 * protocol parser copies every field into a buffer of its own). Keys are the column names;
 * values are JSON's: a timestamp comes as its ISO 8601 text (the caller makes it a Date),
 * numeric types as numbers, arrays as arrays. `orderBy` orders the rows by `q.<column>`.
 */
export async function queryJsonRows<R>(sql: Sql, select: string, params: unknown[], orderBy?: string): Promise<R[]> {
  const [row] = await sql.query<{ rows: string }>(
    `SELECT coalesce(json_agg(q${orderBy ? ` ORDER BY ${orderBy}` : ''}), '[]')::text AS rows FROM (${select}) q`,
    params,
  );
  return JSON.parse(row!.rows) as R[];
}
