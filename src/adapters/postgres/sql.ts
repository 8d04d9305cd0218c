// The small SQL interface every repository is written against: one dialect
// (the PostgreSQL 15 subset), two engines (PGlite, node-postgres).
export interface Sql {
  readonly engine: 'pglite' | 'postgres';
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /**
   * Runs a query handing each row to `onRow` as it arrives: node-postgres as the server sends
   * it (the server computes the next row meanwhile), PGlite (whole results only) once the
   * query is done. An exception from `onRow` fails the call once the query has ended.
   * Columns named in `bytes` come as Buffers (their UTF-8 text), for callers that send them
   * on as bytes (PGlite, in a transaction, hands them on without decoding them).
   */
  queryRows<R = Record<string, unknown>>(text: string, params: unknown[], onRow: (row: R) => void, opts?: { bytes?: readonly string[] }): Promise<void>;
  /** Runs several statements (migrations); no parameters. */
  exec(text: string): Promise<void>;
  /** Runs fn in a transaction; inside it, use only `tx` (on PGlite the outer handle would wait for ever). */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** LISTEN on a channel (PostgreSQL: a dedicated connection that reconnects). Answers an unlisten function. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
