// The Sql interface with its failures counted (GET /metrics: database query errors),
// transactions included; the error itself is rethrown unchanged.
import type { Sql } from './sql.ts';

export function instrumentSql<S extends Sql>(sql: S, onError: (e: unknown) => void): S {
  const counted = <T>(p: Promise<T>): Promise<T> =>
    p.catch((e: unknown) => {
      onError(e);
      throw e;
    });
  return {
    ...sql, // what else the engine offers (poolStats, the deadlines' load), unchanged
    engine: sql.engine,
    query: (text, params, opts) => counted(sql.query(text, params, opts)),
    queryTexts: (text, params, onRow) => counted(sql.queryTexts(text, params, onRow)),
    exec: (text) => counted(sql.exec(text)),
    // Failures inside fn are counted where they happen (fn gets an instrumented tx).
    transaction: (fn, opts) => sql.transaction((tx) => fn(instrumentSql(tx, onError)), opts),
    listen: (channel, onMessage) => sql.listen(channel, onMessage),
    close: () => sql.close(),
  };
}
