// The audit tables (migration 0031_audit_log.sql; ../core/ports.ts AuditRepo), plain SQL on one executor.
import { queryJsonRows, type Sql } from '../../../adapters/postgres/sql.ts';
import { GENESIS } from '../core/chain.ts';
import type { AuditFilter, AuditRecord, AuditRepo, ChainState, ExportForm } from '../core/ports.ts';

const COLS = `seq::float8 AS seq, at, account_id AS "accountId", user_id AS "userId", client, ip, surface, operation, targets,
  outcome, status, decisions, request_id AS "requestId", prev_hash AS "prevHash", hash`;
const CHAIN_COLS = `head_seq::float8 AS "headSeq", head_hash AS "headHash", anchor_seq::float8 AS "anchorSeq", anchor_hash AS "anchorHash"`;

/** The WHERE conditions of a filter, its parameters numbered after `params`. */
function where(filter: AuditFilter, params: unknown[]): string {
  const conds: string[] = [];
  const add = (cond: (n: string) => string, v: unknown) => {
    params.push(v);
    conds.push(cond(`$${params.length}`));
  };
  if (filter.accountId !== undefined) add((n) => `account_id = ${n}`, filter.accountId);
  if (filter.userId !== undefined) add((n) => `user_id = ${n}`, filter.userId);
  if (filter.target !== undefined) add((n) => `targets @> jsonb_build_array(${n}::text)`, filter.target);
  if (filter.from !== undefined) add((n) => `at >= ${n}`, filter.from);
  if (filter.to !== undefined) add((n) => `at < ${n}`, filter.to);
  return conds.length ? conds.join(' AND ') : 'true';
}

/**
 * The order of a filter's records: with an account, the index (account_id, seq) exactly, so
 * that a page is an index range read up to its LIMIT whatever the planner's statistics (PGlite
 * never analyses: ordering by seq alone, it read the account's every record and sorted them
 * for each page of an export).
 */
const orderOf = (filter: AuditFilter, dir: 'ASC' | 'DESC') =>
  filter.accountId !== undefined ? `account_id ${dir}, seq ${dir}` : `seq ${dir}`;

/**
 * The export's lines, built by the database (docs/audit.md "Query and export"): byte for byte
 * what API 2's presenter and csvLine (../http/presenters.ts) make of a record, checked by
 * test/http/audit-export-lines.test.ts. `a` is the record's row, `ns` the URN namespace's
 * placeholder. No `$` but in placeholders (node-postgres inlines them for queryTexts).
 */
const urnOf = (type: 'account' | 'user', column: string, ns: string) =>
  `CASE WHEN ${column} IS NULL THEN NULL ELSE 'urn:' || ${ns} || ':${type}:' || ${column}::text END`;
/** The time as JavaScript's toISOString writes it (milliseconds, UTC, Z). */
const AT_ISO = `to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const TARGET_TEXTS = `ARRAY(SELECT t FROM jsonb_array_elements_text(a.targets) WITH ORDINALITY AS e(t, i) ORDER BY i)`;
/** Decisions as the presenter shows them: JSON.parse of jsonb's text orders the keys as jsonb stores them, grant first. */
const DECISION_ROWS = `(SELECT e.v ->> 'grant' AS "grant", e.v ->> 'permission' AS permission, e.i FROM jsonb_array_elements(a.decisions) WITH ORDINALITY AS e(v, i)) d`;

/** The fifteen presented fields, in the presenter's order, as named columns (row_to_json writes them compactly, as JSON.stringify). */
const jsonColumns = (ns: string) => `a.seq, ${AT_ISO} AS at, ${urnOf('account', 'a.account_id', ns)} AS "accountId",
  ${urnOf('user', 'a.user_id', ns)} AS "userId", a.client, a.ip, a.surface, a.operation, array_to_json(${TARGET_TEXTS}) AS targets,
  a.outcome, a.status, array_to_json(ARRAY(SELECT row_to_json(x) FROM (SELECT d."grant", d.permission FROM ${DECISION_ROWS} ORDER BY d.i) x)) AS decisions,
  a.request_id AS "requestId", a.prev_hash AS "prevHash", a.hash`;

/**
 * One CSV cell (RFC 4180) of a text, as presenters.ts csvField: empty for NULL; an apostrophe
 * before a text a spreadsheet would take for a formula; quoted, quotes doubled, when it holds
 * a quote, a comma or a line break.
 */
function csvCell(text: string): string {
  const shown = `(CASE WHEN ${text} ~ E'^[=+@\\t\\r-]' THEN '''' || ${text} ELSE ${text} END)`;
  return `CASE WHEN ${text} IS NULL THEN '' WHEN ${shown} ~ E'[",\\r\\n]' THEN '"' || replace(${shown}, '"', '""') || '"' ELSE ${shown} END`;
}
const csvLineOf = (ns: string) => [
  'a.seq::text', AT_ISO, urnOf('account', 'a.account_id', ns), urnOf('user', 'a.user_id', ns), 'a.client', 'a.ip', 'a.surface', 'a.operation',
  `array_to_string(${TARGET_TEXTS}, ' ')`, 'a.outcome', 'a.status::text',
  `array_to_string(ARRAY(SELECT d.permission || '<-' || coalesce(d."grant", '?') FROM ${DECISION_ROWS} ORDER BY d.i), ' ')`,
  'a.request_id', 'a.prev_hash', 'a.hash',
].map((cell) => (cell === 'a.seq::text' || cell === 'a.status::text' ? `coalesce(${cell}, '')` : csvCell(cell))).join(` || ',' || `) + ` || chr(13) || chr(10)`;

export function auditRepo(sql: Sql): AuditRepo {
  const chain = async (lock: boolean): Promise<ChainState> => {
    const [row] = await sql.query<ChainState>(`SELECT ${CHAIN_COLS} FROM audit_chain WHERE id = 1${lock ? ' FOR UPDATE' : ''}`);
    return row ?? GENESIS;
  };
  return {
    async lockChain() {
      // At genesis the row is made first (concurrent makers: one inserts, the others wait on its lock).
      await sql.query(
        `INSERT INTO audit_chain (id, head_seq, head_hash, anchor_seq, anchor_hash) VALUES (1, 0, $1, 0, $1) ON CONFLICT (id) DO NOTHING`,
        [GENESIS.headHash],
      );
      return chain(true);
    },
    chain: () => chain(false),
    async append(r: AuditRecord) {
      await sql.query(
        `INSERT INTO audit_log (seq, at, account_id, user_id, client, ip, surface, operation, targets, outcome, status, decisions, request_id, prev_hash, hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12::jsonb, $13, $14, $15)`,
        [r.seq, r.at, r.accountId, r.userId, r.client, r.ip, r.surface, r.operation, JSON.stringify(r.targets), r.outcome, r.status,
          JSON.stringify(r.decisions), r.requestId, r.prevHash, r.hash],
      );
      await sql.query('UPDATE audit_chain SET head_seq = $1, head_hash = $2 WHERE id = 1', [r.seq, r.hash]);
    },
    async page(filter, beforeSeq, limit) {
      const params: unknown[] = [];
      const cond = where(filter, params);
      params.push(beforeSeq ?? Number.MAX_SAFE_INTEGER, limit);
      return sql.query<AuditRecord>(
        `SELECT ${COLS} FROM audit_log WHERE ${cond} AND seq < $${params.length - 1} ORDER BY ${orderOf(filter, 'DESC')} LIMIT $${params.length}`, params,
      );
    },
    async after(filter, afterSeq, limit) {
      const params: unknown[] = [];
      const cond = where(filter, params);
      params.push(afterSeq, limit);
      // A batch of an export is a thousand rows with two jsonb columns each: read as one JSON
      // text (queryJsonRows), not field by field (PGlite's row decoding was most of the cost).
      const rows = await queryJsonRows<Omit<AuditRecord, 'at'> & { at: string }>(
        sql,
        `SELECT ${COLS} FROM audit_log WHERE ${cond} AND seq > $${params.length - 1} ORDER BY ${orderOf(filter, 'ASC')} LIMIT $${params.length}`,
        params,
        'seq',
      );
      return rows.map((r) => ({ ...r, at: new Date(r.at) }));
    },
    async exportLines(filter, afterSeq, limit, form: ExportForm) {
      const params: unknown[] = [];
      const cond = where(filter, params);
      params.push(afterSeq, limit, form.urnNamespace);
      const [after, most, ns] = [params.length - 2, params.length - 1, params.length].map((n) => `$${n}`);
      const nsText = `${ns}::text`;
      // One row per batch: the lines joined by the database, the last seq and the count, so
      // that no record becomes a JavaScript object on the way out.
      const batch = form.format === 'csv'
        ? `SELECT a.seq, ${csvLineOf(nsText)} AS line FROM audit_log a WHERE ${cond} AND a.seq > ${after} ORDER BY ${orderOf(filter, 'ASC')} LIMIT ${most}`
        : `SELECT q.seq, row_to_json(q)::text || chr(10) AS line FROM (SELECT ${jsonColumns(nsText)} FROM audit_log a WHERE ${cond} AND a.seq > ${after} ORDER BY ${orderOf(filter, 'ASC')} LIMIT ${most}) q`;
      let found: { lines: Uint8Array; lastSeq: number; count: number } | null = null;
      await sql.queryTexts(
        `SELECT string_agg(b.line, '' ORDER BY b.seq) AS lines, max(b.seq)::text AS last, count(*)::text AS n FROM (${batch}) b`,
        params,
        ([lines, last, n]) => {
          if (lines && last && n) found = { lines, lastSeq: Number(last.toString('latin1')), count: Number(n.toString('latin1')) };
        },
      );
      return found;
    },
    async retentionEnd(cutoff, afterSeq, batch) {
      const [row] = await sql.query<{ seq: number; hash: string }>(
        // In chain order, up to the first record not older than the cutoff (times follow the
        // requests' starts, so they are not quite in chain order).
        `WITH first AS (SELECT seq, hash, at FROM audit_log WHERE seq > $2 ORDER BY seq LIMIT $3)
         SELECT seq::float8 AS seq, hash FROM first
         WHERE seq < coalesce((SELECT min(seq) FROM first WHERE at >= $1), 9223372036854775807)
         ORDER BY seq DESC LIMIT 1`,
        [cutoff, afterSeq, batch],
      );
      return row ?? null;
    },
    async dropThrough(seq, hash) {
      const [row] = await sql.query<{ n: number }>(
        `WITH d AS (DELETE FROM audit_log WHERE seq <= $1 RETURNING 1) SELECT count(*)::int AS n FROM d`, [seq],
      );
      await sql.query('UPDATE audit_chain SET anchor_seq = $1, anchor_hash = $2 WHERE id = 1', [seq, hash]);
      return row!.n;
    },
  };
}
