// An app on a fresh test database, driven through app.inject().
import { loadConfig } from '../../src/config.ts';
import { compose, type Core } from '../../src/compose.ts';
import { buildApp, type App } from '../../src/http/app.ts';
import { migratedDatabase } from './database.ts';
import type { Sql } from '../../src/adapters/postgres/sql.ts';

export const OPERATOR_TOKEN = 'test-operator-token-of-24-chars+';
export const PUBLIC_URL = 'http://localhost:8080';

export interface TestApp {
  app: App;
  core: Core;
  close(): Promise<void>;
  /** Applies a seed document through the operator API; answers its result. */
  seed(doc: unknown): Promise<any>;
  /** A token pair for the user, through the operator API. */
  tokens(email: string): Promise<{ access_token: string; refresh_token: string; user_id: string }>;
}

/** `wrapSql` puts a layer between the app and its database (a test counting queries). */
export async function testApp(env: Record<string, string> = {}, opts: { wrapSql?: (sql: Sql) => Sql } = {}): Promise<TestApp> {
  const db = await migratedDatabase();
  let core: Core | undefined;
  try {
    const config = loadConfig({
      DATABASE_URL: 'memory:',
      OPERATOR_TOKEN,
      SANDBOX: '1',
      PUBLIC_URL,
      ...env,
    });
    const composed = (core = await compose(config, { sql: opts.wrapSql ? opts.wrapSql(db.sql) : db.sql }));
    const app = await buildApp(composed);
    return driven(app, composed, async () => {
      await app.close();
      await composed.close();
      await db.drop();
    });
  } catch (e) {
    // A start-up the test expects to be refused (a bad setting) leaves no database behind:
    // on PostgreSQL each one was a migrated database left on the server.
    await core?.close();
    await db.drop();
    throw e;
  }
}

/** The TestApp of a composed core and its app (`close` ends what the caller opened). */
export function driven(app: App, core: Core, close: () => Promise<void>): TestApp {
  const op = { authorization: `Bearer ${OPERATOR_TOKEN}` };
  return {
    app,
    core,
    close,
    async seed(doc) {
      const res = await app.inject({ method: 'POST', url: '/_operator/seed', headers: op, payload: doc as object });
      if (res.statusCode !== 200) throw new Error(`seed failed: ${res.statusCode} ${res.body}`);
      return res.json();
    },
    async tokens(email) {
      const res = await app.inject({ method: 'POST', url: '/_operator/tokens', headers: op, payload: { email } });
      if (res.statusCode !== 200) throw new Error(`tokens failed: ${res.statusCode} ${res.body}`);
      return res.json();
    },
  };
}

/** The standard small world: an owner with one account and one subscription. */
export const BASIC_SEED = {
  users: [
    { email: 'olivia@acme.test', password: 'olivia-password-1', firstName: 'Olivia', lastName: 'Owner' },
    { email: 'mark@acme.test', password: 'mark-password-1', firstName: 'Mark', lastName: 'Member' },
  ],
  accounts: [
    {
      name: 'Acme',
      owner: 'olivia@acme.test',
      members: ['mark@acme.test'],
      subscriptions: [{ name: 'Pro', scanCapacity: 500, tagCapacity: 100000, geoImageCapacity: 500 }],
    },
  ],
};
