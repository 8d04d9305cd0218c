// A throw-away PostgreSQL database for the benchmark: created with a random name on
// the server BENCH_DATABASE_URL (or TEST_DATABASE_URL) names, dropped afterwards.
import crypto from 'node:crypto';
import pg from 'pg';

export const benchServerUrl = (): string | undefined =>
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;

export interface TempDatabase {
  url: string;
  drop(): Promise<void>;
}

async function run(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createTempDatabase(serverUrl: string): Promise<TempDatabase> {
  const name = `scanbase_bench_${crypto.randomBytes(6).toString('hex')}`;
  await run(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await run(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** The URL with its password hidden, for printing. */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}
