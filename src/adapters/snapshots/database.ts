// A snapshot's database part: every table of the schema, in foreign-key order, as binary
// COPY data (docs/sandbox.md "Snapshots"). Saved in one REPEATABLE READ, READ ONLY
// transaction (one consistent view on PostgreSQL; PGlite has one connection anyway);
// restored in one transaction that empties the tables and loads them, so a failed restore
// changes nothing. Works on both engines through the Sql port's copyOut/copyIn.
import type { Sql } from '../postgres/sql.ts';
import { MAINTENANCE_LOCK } from '../postgres/repos/misc.ts';
import { SWEEPER_LOCK } from '../postgres/repos/files.ts';

/** Kept by the engine itself: never in a snapshot, never emptied by a restore. */
const MIGRATIONS_TABLE = 'schema_migrations';
/** The token signing keys: in a snapshot only when asked for (SnapshotOptions.signingKeys). */
export const SIGNING_KEYS_TABLE = 'signing_keys';
/** Settings rows that hold a deployment's own secrets (the local store's URL key, the CSRF key): never saved, never replaced. */
export const SECRET_SETTINGS = ['storage.signing_key', 'web_sessions.csrf_key', 'sso.sealing_key', 'integrations.sealing_key'];

export interface TablePlan {
  name: string;
  /** The columns copied, in order (generated columns are not: the engine computes them). */
  columns: string[];
  rows: number;
}

export interface SequenceState {
  name: string;
  /** The value `setval` restores, and whether nextval has been called since (false: the next value is `value`). */
  value: string;
  isCalled: boolean;
}

/** Tables with at least this many rows get their secondary indexes built after the load. */
const BULK_ROWS = 10_000;

export const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;
const columnList = (t: Pick<TablePlan, 'name' | 'columns'>) => `${quoteName(t.name)} (${t.columns.map(quoteName).join(', ')})`;

/** What is copied out of a table: the settings without the deployment's secrets; every other table whole. */
function copySource(t: TablePlan): string {
  if (t.name !== 'settings') return columnList(t);
  const secrets = SECRET_SETTINGS.map((k) => `'${k.replace(/'/g, "''")}'`).join(', ');
  return `(SELECT ${t.columns.map(quoteName).join(', ')} FROM settings WHERE key NOT IN (${secrets}))`;
}

/**
 * The tables of the schema with their columns, parents before children (a child's rows
 * reference its parents'): the order a load meets no missing parent in. A cycle (none in
 * this schema) would be broken by name order; a self-reference is not a dependency.
 */
export async function tablesInOrder(sql: Sql, opts: { signingKeys: boolean }): Promise<Omit<TablePlan, 'rows'>[]> {
  const columns = await sql.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = current_schema() AND is_generated = 'NEVER'
     ORDER BY table_name, ordinal_position`,
  );
  const tables = new Map<string, string[]>();
  const kinds = await sql.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
  );
  for (const { name } of kinds) if (name !== MIGRATIONS_TABLE && (opts.signingKeys || name !== SIGNING_KEYS_TABLE)) tables.set(name, []);
  for (const c of columns) tables.get(c.table_name)?.push(c.column_name);
  const edges = await sql.query<{ child: string; parent: string }>(
    `SELECT ch.relname AS child, pa.relname AS parent FROM pg_constraint k
     JOIN pg_class ch ON ch.oid = k.conrelid JOIN pg_class pa ON pa.oid = k.confrelid
     WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace`,
  );
  const parents = new Map<string, Set<string>>([...tables.keys()].map((t) => [t, new Set<string>()]));
  for (const e of edges) if (e.child !== e.parent && tables.has(e.parent)) parents.get(e.child)?.add(e.parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.size) {
    const ready = [...tables.keys()].filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    const next = ready.length ? ready : [[...tables.keys()].find((t) => !placed.has(t))!];
    for (const t of next.sort()) {
      ordered.push(t);
      placed.add(t);
    }
  }
  return ordered.map((name) => ({ name, columns: tables.get(name)! }));
}

export async function appliedMigrations(sql: Sql): Promise<string[]> {
  return (await sql.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY version`)).map((r) => r.name);
}

export async function sequenceStates(sql: Sql): Promise<SequenceState[]> {
  const rows = await sql.query<{ name: string; last_value: string | null; start_value: string }>(
    `SELECT sequencename AS name, last_value::text, start_value::text FROM pg_sequences WHERE schemaname = current_schema() ORDER BY sequencename`,
  );
  return rows.map((r) => ({ name: r.name, value: r.last_value ?? r.start_value, isCalled: r.last_value !== null }));
}

export interface DatabaseDump {
  engine: Sql['engine'];
  migrations: string[];
  tables: TablePlan[];
  sequences: SequenceState[];
  /** The settings rows' values by key (the clock offset among them), secrets left out. */
  settings: Record<string, unknown>;
}

/**
 * Dumps the database in one consistent transaction: `begin` gets the plan (tables, row
 * counts, sequences) before any data, then `table` each table's COPY data in plan order
 * (each call must consume `data` before it returns).
 */
export async function dumpDatabase(
  sql: Sql,
  opts: { signingKeys: boolean },
  sink: {
    begin(dump: DatabaseDump): Promise<void>;
    table(t: TablePlan, data: (onChunk: (chunk: Uint8Array) => Promise<void> | void) => Promise<void>): Promise<void>;
  },
): Promise<DatabaseDump> {
  return sql.transaction(async (tx) => {
    // Must be the transaction's first statement: every later read sees the same instant.
    await tx.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    await tx.exec('SET LOCAL statement_timeout = 0');
    const plan = await tablesInOrder(tx, opts);
    const counted = plan.filter((t) => t.name !== 'settings');
    const counts = counted.length
      ? await tx.query<{ t: string; n: number }>(
        counted.map((t, i) => `SELECT $${i + 1}::text AS t, count(*)::int AS n FROM ${quoteName(t.name)}`).join(' UNION ALL '),
        counted.map((t) => t.name),
      )
      : [];
    const rowsOf = new Map(counts.map((c) => [c.t, c.n]));
    const settingsRows = await tx.query<{ key: string; value: unknown }>('SELECT key, value FROM settings WHERE key <> ALL($1) ORDER BY key', [SECRET_SETTINGS]);
    const dump: DatabaseDump = {
      engine: sql.engine,
      migrations: await appliedMigrations(tx),
      tables: plan.map((t) => ({ ...t, rows: t.name === 'settings' ? settingsRows.length : rowsOf.get(t.name)! })),
      sequences: await sequenceStates(tx),
      settings: Object.fromEntries(settingsRows.map((r) => [r.key, r.value])),
    };
    await sink.begin(dump);
    for (const t of dump.tables) await sink.table(t, (onChunk) => tx.copyOut(copySource(t), onChunk));
    return dump;
  }, { deadlineMs: 0 });
}

/** Why a snapshot cannot be restored into this database (null: it can). */
export async function incompatibility(sql: Sql, saved: { migrations: string[]; tables: Omit<TablePlan, 'rows'>[]; signingKeys: boolean }): Promise<string | null> {
  const migrations = await appliedMigrations(sql);
  if (migrations.join('\n') !== saved.migrations.join('\n')) {
    const missing = saved.migrations.filter((m) => !migrations.includes(m));
    const extra = migrations.filter((m) => !saved.migrations.includes(m));
    return `the snapshot's schema differs from this database's (${[
      missing.length ? `snapshot only: ${missing.join(', ')}` : '', extra.length ? `database only: ${extra.join(', ')}` : '',
    ].filter(Boolean).join('; ') || 'another order'})`;
  }
  const live = new Map((await tablesInOrder(sql, { signingKeys: saved.signingKeys })).map((t) => [t.name, t.columns.join(',')]));
  for (const t of saved.tables) {
    if (live.get(t.name) !== t.columns.join(',')) return `table ${t.name} has other columns here`;
  }
  if (live.size !== saved.tables.length) return 'this database has tables the snapshot does not';
  return null;
}

/**
 * Replaces every table's rows by the snapshot's, in one transaction: the tables are
 * emptied (TRUNCATE; settings: every row but the secrets), then each is loaded from `next`
 * (which hands each table's COPY data in the snapshot's order), then the sequences are set.
 * Foreign keys: a superuser loads with `session_replication_role = replica` (no per-row
 * checks: the data was consistent when saved); any other role loads in the saved
 * parent-first order with the checks on. Takes the housekeeping and sweeper locks first
 * (as a reset does), so no pass runs in between.
 */
export async function loadDatabase(
  sql: Sql,
  saved: { tables: TablePlan[]; sequences: SequenceState[]; signingKeys: boolean },
  next: (t: TablePlan) => Promise<AsyncIterable<Uint8Array>>,
): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.exec('SET LOCAL statement_timeout = 0');
    await tx.query('SELECT pg_advisory_xact_lock($1), pg_advisory_xact_lock($2)', [MAINTENANCE_LOCK, SWEEPER_LOCK]);
    const [{ su }] = (await tx.query<{ su: string }>(`SELECT current_setting('is_superuser') AS su`)) as [{ su: string }];
    if (su === 'on') await tx.exec(`SET LOCAL session_replication_role = replica`);
    const emptied = saved.tables.filter((t) => t.name !== 'settings');
    if (emptied.length) await tx.exec(`TRUNCATE ${emptied.map((t) => quoteName(t.name)).join(', ')}`);
    await tx.query('DELETE FROM settings WHERE key <> ALL($1)', [SECRET_SETTINGS]);
    // A large table's secondary indexes are built once after its load rather than row by
    // row during it (about a third of a 100,000-tag load on PGlite); those backing a
    // constraint stay. In the transaction: a failed restore leaves them as they were.
    const bulky = saved.tables.filter((t) => t.rows >= BULK_ROWS).map((t) => t.name);
    const rebuilt = bulky.length
      ? await tx.query<{ name: string; def: string }>(
        `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
         WHERE i.schemaname = current_schema() AND i.tablename = ANY($1)
           AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)`,
        [bulky],
      )
      : [];
    for (const i of rebuilt) await tx.exec(`DROP INDEX ${quoteName(i.name)}`);
    for (const t of saved.tables) await tx.copyIn(columnList(t), await next(t));
    if (rebuilt.length) await tx.exec(`SET LOCAL maintenance_work_mem = '256MB'`);
    for (const i of rebuilt) await tx.exec(i.def);
    for (const s of saved.sequences) await tx.query('SELECT setval($1::regclass, $2::bigint, $3)', [quoteName(s.name), s.value, s.isCalled]);
  }, { deadlineMs: 0 });
}
