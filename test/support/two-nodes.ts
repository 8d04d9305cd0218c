// Two nodes of one cluster for the tests of what crosses nodes: two composed cores, each
// with its own connection pool and LISTEN connection, on one fresh PostgreSQL database
// (TEST_DATABASE_URL). Node A's close() drops the database after both nodes closed.
import { loadConfig } from '../../src/config.ts';
import { compose } from '../../src/compose.ts';
import { buildApp } from '../../src/http/app.ts';
import { openPostgres } from '../../src/adapters/postgres/node-postgres.ts';
import { driven, OPERATOR_TOKEN, PUBLIC_URL, type TestApp } from './app.ts';
import { migratedDatabase } from './database.ts';

export async function twoNodes(env: Record<string, string> = {}): Promise<{ a: TestApp; b: TestApp; close(): Promise<void> }> {
  const db = await migratedDatabase('postgres');
  const config = loadConfig({ DATABASE_URL: 'memory:', OPERATOR_TOKEN, SANDBOX: '1', PUBLIC_URL, ...env });
  const secondSql = openPostgres(db.url!, 5);
  const opened: (() => Promise<void>)[] = [];
  const node = async (sql: typeof db.sql) => {
    const core = await compose(config, { sql });
    const app = await buildApp(core);
    const close = async () => {
      await app.close();
      await core.close();
    };
    opened.push(close);
    return driven(app, core, close);
  };
  const close = async () => {
    for (const c of opened) await c();
    await secondSql.close();
    await db.drop();
  };
  try {
    return { a: await node(db.sql), b: await node(secondSql), close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Polls `read` every 20 ms until `done` holds or `ms` pass; answers the last value read. */
export async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 2000): Promise<T> {
  const until = Date.now() + ms;
  let v = await read();
  while (!done(v) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 20));
    v = await read();
  }
  return v;
}
