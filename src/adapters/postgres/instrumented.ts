// The Sql interface with its failures counted (GET /metrics: database query errors),
// transactions included; the error itself is rethrown unchanged.
import type { Sql } from './sql.ts';

export function instrumentSql(sql: Sql, onError: (e: unknown) => void): Sql {
  const counted = <T>(p: Promise<T>): Promise<T> =>
    p.catch((e: unknown) => {
      onError(e);
      throw e;
    });
  return {
    engine: sql.engine,
    query: (text, params, opts) => counted(sql.query(text, params, opts)),
    queryTexts: (text, params, onRow) => counted(sql.queryTexts(text, params, onRow)),
    exec: (text) => counted(sql.exec(text)),
    // Failures inside fn are counted where they happen (fn gets an instrumented tx).
    transaction: (fn) => sql.transaction((tx) => fn(instrumentSql(tx, onError))),
    listen: (channel, onMessage) => sql.listen(channel, onMessage),
    close: () => sql.close(),
    ...(sql.poolStats ? { poolStats: () => sql.poolStats!() } : {}),
  };
}
