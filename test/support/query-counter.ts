// A layer over the Sql port that records the statements an app issues on behalf of a
// measured call (tests that check a read costs a fixed number of queries, whatever the
// size of the data). Only statements issued in the call's async context count: the
// app's timers (rate-limit exchange, janitor, job runner) run outside it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Sql } from '../../src/adapters/postgres/sql.ts';

export interface QueryLog {
  /** Runs `fn`, answering its result and the statements it issued, in order (transactions included). */
  measure<T>(fn: () => Promise<T>): Promise<{ result: T; texts: string[] }>;
  /** testApp's wrapSql option that feeds this log. */
  wrapSql(sql: Sql): Sql;
}

export function queryLog(): QueryLog {
  const current = new AsyncLocalStorage<string[]>();
  const record = (text: string) => current.getStore()?.push(text);
  const wrap = (sql: Sql): Sql => ({
    engine: sql.engine,
    query: (text, params, opts) => {
      record(text);
      return sql.query(text, params, opts);
    },
    queryTexts: (text, params, onRow) => {
      record(text);
      return sql.queryTexts(text, params, onRow);
    },
    exec: (text) => {
      record(text);
      return sql.exec(text);
    },
    copyOut: (source, onChunk) => {
      record(`COPY ${source} TO`);
      return sql.copyOut(source, onChunk);
    },
    copyIn: (target, data) => {
      record(`COPY ${target} FROM`);
      return sql.copyIn(target, data);
    },
    transaction: (fn) => sql.transaction((tx) => fn(wrap(tx))),
    listen: (channel, onMessage) => sql.listen(channel, onMessage),
    close: () => sql.close(),
    ...(sql.poolStats ? { poolStats: () => sql.poolStats!() } : {}),
  });
  return {
    async measure(fn) {
      const texts: string[] = [];
      const result = await current.run(texts, fn);
      return { result, texts };
    },
    wrapSql: wrap,
  };
}
