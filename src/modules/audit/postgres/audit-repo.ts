// The audit tables (migration 0031_audit_log.sql; ../core/ports.ts AuditRepo), plain SQL on one executor.
import { queryJsonRows, type Sql } from '../../../adapters/postgres/sql.ts';
import { GENESIS } from '../core/chain.ts';
import type { AuditFilter, AuditRecord, AuditRepo, ChainState } from '../core/ports.ts';

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
