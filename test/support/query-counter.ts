// A layer over the Sql port that records the statements an app issues (tests that check
// a read costs a fixed number of queries, whatever the size of the data).
import type { Sql } from '../../src/adapters/postgres/sql.ts';

export interface QueryLog {
  /** The texts issued since the last reset, in order (transactions included). */
  readonly texts: string[];
  reset(): void;
}

export function countingSql(sql: Sql, log: { texts: string[] }): Sql {
  return {
    engine: sql.engine,
    query: (text, params) => {
      log.texts.push(text);
      return sql.query(text, params);
    },
    queryTexts: (text, params, onRow) => {
      log.texts.push(text);
      return sql.queryTexts(text, params, onRow);
    },
    exec: (text) => {
      log.texts.push(text);
      return sql.exec(text);
    },
    transaction: (fn) => sql.transaction((tx) => fn(countingSql(tx, log))),
    listen: (channel, onMessage) => sql.listen(channel, onMessage),
    close: () => sql.close(),
    ...(sql.poolStats ? { poolStats: () => sql.poolStats!() } : {}),
  };
}

/** A log and the wrapSql option of testApp that feeds it. */
export function queryLog(): QueryLog & { wrapSql: (sql: Sql) => Sql } {
  const texts: string[] = [];
  return {
    texts,
    reset: () => void texts.splice(0),
    wrapSql: (sql) => countingSql(sql, { texts }),
  };
}
