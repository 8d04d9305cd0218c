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

/*
 * The export's lines, built by the database (docs/audit.md "Query and export"): byte for byte
 * what API 2's presenter and csvLine (../http/presenters.ts) make of a record, checked by
 * test/http/audit-export-lines.test.ts. Built of concatenations, replace(), strpos() and
 * jsonb element reads only: row_to_json, to_char, regular expressions and a subquery per row
 * each cost more than the whole line on PGlite (docs/performance.md "Audit export"). `ns` is
 * the URN namespace's placeholder. No `$` but in placeholders (node-postgres inlines them
 * for queryTexts).
 */
const urnOf = (type: 'account' | 'user', column: string, ns: string) => `'urn:' || ${ns} || ':${type}:' || ${column}::text`;
/**
 * The time as JavaScript's toISOString writes it (milliseconds, truncated; UTC; Z), from the
 * ISO text of the UTC time (DateStyle ISO, PostgreSQL's default: `2026-03-04 05:06:07.891234`,
 * the fraction without its trailing zeros, or none).
 */
const AT_ISO = `concat(replace(left((a.at AT TIME ZONE 'UTC')::text, 19), ' ', 'T'), '.', rpad(substr((a.at AT TIME ZONE 'UTC')::text, 21, 3), 3, '0'), 'Z')`;
const jsonText = (column: string) => `coalesce(to_json(${column})::text, 'null')`;
/**
 * jsonb's text of the module's arrays, as JSON.stringify writes them: jsonb puts a space after
 * each `,` and `:` between items. Each pattern replaced begins or ends with an unescaped quote
 * next to the space, which no string's content can hold (its quotes are escaped): exact for
 * an array of strings (targets) and of objects {grant: string|null, permission: string}
 * (decisions; jsonb orders the keys grant first, as JSON.parse of its text does).
 */
const TARGETS_JSON = `replace(a.targets::text, '", "', '","')`;
const DECISIONS_JSON = `replace(replace(replace(a.decisions::text, '{"grant": ', '{"grant":'), ', "permission": ', ',"permission":'), '"}, {"', '"},{"')`;

/** The NDJSON line: one concat() of its pieces (one call, not one per `||`). */
const jsonLine = (ns: string) => `concat('{"seq":', a.seq, ',"at":"', ${AT_ISO}, '","accountId":', coalesce('"' || ${urnOf('account', 'a.account_id', ns)} || '"', 'null'),
  ',"userId":', coalesce('"' || ${urnOf('user', 'a.user_id', ns)} || '"', 'null'), ',"client":', ${jsonText('a.client')}, ',"ip":', ${jsonText('a.ip')},
  ',"surface":', ${jsonText('a.surface')}, ',"operation":', ${jsonText('a.operation')}, ',"targets":', ${TARGETS_JSON},
  ',"outcome":', ${jsonText('a.outcome')}, ',"status":', coalesce(a.status::text, 'null'), ',"decisions":', ${DECISIONS_JSON},
  ',"requestId":', ${jsonText('a.request_id')}, ',"prevHash":', ${jsonText('a.prev_hash')}, ',"hash":', ${jsonText('a.hash')}, '}', chr(10))`;

/** Arrays this long are joined from their items read one by one; longer ones by a subquery. */
const JOINED_DIRECTLY = 4;
/** A jsonb array's items (`item(i)`: the text of item i) joined by spaces, as JavaScript's join(' '). */
function joined(array: string, item: (i: number) => string, all: string): string {
  const cases = Array.from({ length: JOINED_DIRECTLY }, (_, n) =>
    `WHEN ${n + 1} THEN ${Array.from({ length: n + 1 }, (_, i) => item(i)).join(` || ' ' || `)}`);
  return `CASE jsonb_array_length(${array}) WHEN 0 THEN '' ${cases.join(' ')} ELSE array_to_string(ARRAY(${all}), ' ') END`;
}
const TARGETS_CSV = joined('a.targets', (i) => `(a.targets ->> ${i})`,
  `SELECT t FROM jsonb_array_elements_text(a.targets) WITH ORDINALITY AS e(t, i) ORDER BY i`);
const decisionText = (d: string) => `(${d} ->> 'permission') || '<-' || coalesce(${d} ->> 'grant', '?')`;
const DECISIONS_CSV = joined('a.decisions', (i) => decisionText(`(a.decisions -> ${i})`),
  `SELECT ${decisionText('e.v')} FROM jsonb_array_elements(a.decisions) WITH ORDINALITY AS e(v, i) ORDER BY i`);

/**
 * One CSV cell (RFC 4180) of a text, as presenters.ts csvField: empty for NULL; an apostrophe
 * before a text a spreadsheet would take for a formula (=, +, -, @, tab, CR first); quoted,
 * quotes doubled, when it holds a quote, a comma or a line break.
 */
function csvCell(text: string): string {
  const shown = `(CASE WHEN left(${text}, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || ${text} ELSE ${text} END)`;
  const quoted = `strpos(${text}, '"') > 0 OR strpos(${text}, ',') > 0 OR strpos(${text}, chr(13)) > 0 OR strpos(${text}, chr(10)) > 0`;
  return `CASE WHEN ${text} IS NULL THEN '' WHEN ${quoted} THEN '"' || replace(${shown}, '"', '""') || '"' ELSE ${shown} END`;
}
const csvLineOf = (ns: string) => `concat(${[
  'a.seq::text', AT_ISO, csvCell(`(${urnOf('account', 'a.account_id', ns)})`), csvCell(`(${urnOf('user', 'a.user_id', ns)})`),
  csvCell('a.client'), csvCell('a.ip'), csvCell('a.surface'), csvCell('a.operation'), csvCell(`(${TARGETS_CSV})`), csvCell('a.outcome'),
  `coalesce(a.status::text, '')`, csvCell(`(${DECISIONS_CSV})`), csvCell('a.request_id'), csvCell('a.prev_hash'), csvCell('a.hash'),
].join(`, ',', `)}, chr(13), chr(10))`;

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
        : `SELECT a.seq, ${jsonLine(nsText)} AS line FROM audit_log a WHERE ${cond} AND a.seq > ${after} ORDER BY ${orderOf(filter, 'ASC')} LIMIT ${most}`;
      let found: { lines: Uint8Array; lastSeq: number; count: number } | null = null;
      await sql.queryTexts(
        // The lines in the order the batch's subquery gives them (its ORDER BY: PostgreSQL's
        // aggregates take a sorted subquery's rows in order; an ORDER BY in string_agg sorted
        // the lines again, the most costly step of the batch).
        `SELECT string_agg(b.line, '') AS lines, max(b.seq)::text AS last, count(*)::text AS n FROM (${batch}) b`,
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
