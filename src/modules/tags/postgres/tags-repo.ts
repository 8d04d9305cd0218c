import type { TagFilter, TagJsonPiece, TagJsonShape, TagListRecord, TagRow, TagsRepo } from '../core/ports.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import { byRefClause } from '../../../adapters/postgres/repos/ref.ts';
import crypto from 'node:crypto';
import { runOf } from './tag-runs.ts';

const L_COLS = `l.id, l.api1_id AS "api1Id", l.project_id AS "projectId", l.workzone_id AS "workzoneId",
  l.tag_list_type AS "tagListType", l.name, l.description, l.color, l.metadata_definitions AS "metadataDefinitions",
  l.attachments, l.pending, l.tags_version AS "tagsVersion", l.tag_count AS "tagCount", l.created_at AS "createdAt",
  l.created_by AS "createdBy", l.updated_at AS "updatedAt", l.updated_by AS "updatedBy"`;

// data::text: the stored JSON text as is (json keeps the input text), no per-tag parsing.
const T_COLS = `id, list_id AS "listId", data::text AS data, version, created_at AS "createdAt", created_by AS "createdBy",
  updated_at AS "updatedAt", updated_by AS "updatedBy", deleted_at AS "deletedAt", deleted_by AS "deletedBy"`;

/**
 * Tags per run of streamTagTexts (about), and the most runs. A run of ~4,000 tags (a few
 * megabytes) is sent while the next one is read: small enough that the database reuses its
 * memory (a 40 MB aggregate touches fresh pages throughout, and PGlite keeps its heap's
 * high-water mark) and the answer starts early, large enough that a run's overhead is noise.
 */
const RUN_TAGS = 4096;
const MAX_RUNS = 32;
const COMMA = Buffer.from(',');

const COLUMN = {
  id: 'id', createdBy: 'created_by', updatedBy: 'updated_by', deletedBy: 'deleted_by',
  createdAt: 'created_at', updatedAt: 'updated_at', deletedAt: 'deleted_at', version: 'version',
} as const;

/** One piece as an argument of concat() (one allocation per tag); literals become parameters. */
function pieceSql(p: TagJsonPiece, params: unknown[]): string {
  const param = (v: string) => {
    params.push(v);
    return `$${params.length}::text`;
  };
  // A null column makes the quoted value null, hence 'null'.
  const quoted = (inner: string) => `coalesce('"' || ${inner} || '"', 'null')`;
  if ('text' in p) return param(p.text);
  if ('uuid' in p) return quoted(`${param(p.prefix)} || ${COLUMN[p.uuid]}`);
  if ('api1' in p) return quoted(`rtrim(translate(encode(uuid_send(${COLUMN[p.api1]}), 'base64'), '+/', '-_'), '=')`);
  if ('time' in p) return quoted(`to_char(${COLUMN[p.time]} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
  if ('int' in p) return COLUMN[p.int];
  if ('bool' in p) return `CASE WHEN deleted_at IS NULL THEN 'false' ELSE 'true' END`;
  return 'data';
}

/** Adjacent literal pieces joined, so concat() gets few arguments. */
function merged(pieces: TagJsonPiece[]): TagJsonPiece[] {
  const out: TagJsonPiece[] = [];
  for (const p of pieces) {
    const last = out[out.length - 1];
    if ('text' in p && last && 'text' in last) out[out.length - 1] = { text: last.text + p.text };
    else out.push(p);
  }
  return out;
}

const concatSql = (pieces: TagJsonPiece[], params: unknown[]) => `concat(${merged(pieces).map((p) => pieceSql(p, params)).join(', ')})`;

/** The digest naming a shape: stored text is served only to a reader with the same shape. */
function shapeKey(shape: TagJsonShape): string {
  return crypto.createHash('sha256').update(JSON.stringify([shape.live, shape.deleted ?? null])).digest('base64url').slice(0, 22);
}

/** The tag written as `shape` by the query (live or tombstone). */
function shapeSql(shape: TagJsonShape, params: unknown[]): string {
  const live = concatSql(shape.live, params);
  return shape.deleted ? `CASE WHEN deleted_at IS NULL THEN ${live} ELSE ${concatSql(shape.deleted, params)} END` : live;
}

/** Each stored generation's text column, the query writing it, and its key's parameter. */
function storedColumns(shapes: TagJsonShape[], params: unknown[]) {
  const out: { g: 1 | 2; text: string; key: string }[] = [];
  for (const shape of shapes) {
    const g = shape.generation;
    if (g !== 1 && g !== 2) continue;
    params.push(shapeKey(shape));
    const key = `$${params.length}`;
    out.push({ g, key, text: shapeSql(shape, params) });
  }
  return out;
}

/** The tag's text: as stored when it was written with this very shape, else written now. */
function textSql(shape: TagJsonShape, params: unknown[]): string {
  const [c] = storedColumns([shape], params);
  return c ? `CASE WHEN text_key_${c.g} = ${c.key} THEN text_${c.g} ELSE ${c.text} END` : shapeSql(shape, params);
}

function filterSql(filter: TagFilter, params: unknown[]): string {
  if ('all' in filter) return 'deleted_at IS NULL';
  if ('afterVersion' in filter) {
    params.push(filter.afterVersion);
    return `version > $${params.length}`;
  }
  params.push(filter.since);
  return `updated_at > $${params.length}`;
}

export function tagsRepo(sql: Sql): TagsRepo {
  const repo: TagsRepo = {
    async tagCountByZone(projectId, zoneIds) {
      const rows = await sql.query<{ zone: string; n: number }>(
        `SELECT workzone_id AS zone, coalesce(sum(tag_count), 0)::int AS n FROM tag_lists
         WHERE project_id = $1 AND ($2::uuid[] IS NULL OR workzone_id = ANY($2::uuid[])) GROUP BY workzone_id`,
        [projectId, zoneIds ?? null],
      );
      return new Map(rows.map((r) => [r.zone, r.n]));
    },
    async renderTags(listId, filter, shape) {
      const parts: Buffer[] = [];
      const { version } = await repo.streamTagTexts(listId, filter, shape, (run) => {
        if (parts.length) parts.push(COMMA);
        parts.push(run.text);
      });
      return { version, json: Buffer.concat(parts).toString() };
    },
    async streamTagTexts(listId, filter, shape, onRun) {
      // Per run of places (k), two aggregates over the same rows: the texts (mostly stored:
      // storeTagText), and a small index of ids, places and states. One value each costs far
      // less than thousands of rows of four fields (PGlite's per-field cost). No ORDER BY
      // (runOf puts rows in place). On PostgreSQL one statement answers every run (a binary
      // COPY: the texts come as bytes, never decoded): the server writes run k + 1 while this
      // process sends run k. PGlite runs on this thread: one statement per run, and the event
      // loop turns between runs so the bytes handed on are written to the socket meanwhile.
      const params: unknown[] = [listId];
      const expr = textSql(shape, params);
      const where = filterSql(filter, params);
      const [lo, step, first, last] = [params.length + 1, params.length + 2, params.length + 3, params.length + 4];
      // Every column text: queryTexts hands them on as bytes (the texts are never decoded).
      const text = `SELECT k::text, r.n::text, r.ix, r.j FROM generate_series($${first}::bigint, $${last}::bigint) AS k, LATERAL (
          SELECT string_agg(${expr}, chr(2)) AS j,
            string_agg(concat(id::text, ' ', seq::text, CASE WHEN deleted_at IS NULL THEN '' ELSE ' d' END), ',') AS ix, count(*)::int AS n
          FROM tags WHERE list_id = $1 AND ${where}
            AND seq >= $${lo}::bigint + $${step}::bigint * k AND seq < $${lo}::bigint + $${step}::bigint * (k + 1)) r`;
      type Row = { k: bigint; n: number; ix: string | null; j: Buffer | null };
      return sql.transaction(async (tx) => {
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        const [list] = await tx.query<{ v: number }>('SELECT tags_version AS v FROM tag_lists WHERE id = $1', [listId]);
        // The places the filter's tags span, and how many they are (for a whole list, at
        // most the span: places are dense unless lists were written interleaved), to cut
        // them into runs of about RUN_TAGS.
        const rangeParams: unknown[] = [listId];
        const whole = 'all' in filter;
        const [range] = await tx.query<{ lo: string | null; hi: string | null; n: number | null }>(
          `SELECT min(seq)::text AS lo, max(seq)::text AS hi, ${whole ? 'NULL' : 'count(*)::int'} AS n FROM tags
           WHERE list_id = $1 AND ${whole ? 'true' : filterSql(filter, rangeParams)}`, rangeParams);
        if (range?.lo != null && range.hi != null) {
          const [a, b] = [BigInt(range.lo), BigInt(range.hi)];
          const span = b - a + 1n;
          const count = whole ? Number(span) : (range.n ?? 0);
          const runs = BigInt(Math.min(MAX_RUNS, Math.max(1, Math.ceil(count / RUN_TAGS))));
          const width = (span + runs - 1n) / runs;
          // Runs are handed on in order (a row that came early waits for the ones before).
          let expected = 0n;
          const early = new Map<bigint, Row>();
          const take = ([k, n, ix, j]: (Buffer | null)[]) => {
            const row: Row = { k: BigInt(k!.toString()), n: Number(n!.toString()), ix: ix?.toString() ?? null, j: j ?? null };
            early.set(row.k, row);
            for (let r = early.get(expected); r; r = early.get(expected)) {
              early.delete(expected++);
              if (r.n) onRun(runOf(r.j!, r.ix!));
            }
          };
          const read = (from: bigint, to: bigint) => tx.queryTexts(text, [...params, a.toString(), width.toString(), from.toString(), to.toString()], take);
          if (sql.engine === 'postgres') await read(0n, runs - 1n);
          else {
            for (let k = 0n; k < runs; k++) {
              await read(k, k);
              await new Promise((resolve) => setImmediate(resolve));
            }
          }
          if (expected !== runs) throw new Error(`tag runs: ${expected} of ${runs} read`);
        }
        return { version: list?.v ?? 0 };
      });
    },
    async listById(id) {
      const rows = await sql.query<TagListRecord>(`SELECT ${L_COLS} FROM tag_lists l WHERE l.id = $1`, [id]);
      return rows[0] ?? null;
    },
    async listByRef(projectId, ref) {
      const [where, v] = byRefClause(ref, 'l');
      const rows = await sql.query<TagListRecord>(`SELECT ${L_COLS} FROM tag_lists l WHERE l.project_id = $1 AND ${where}`, [projectId, v]);
      return rows[0] ?? null;
    },
    async lockList(id) {
      const rows = await sql.query<TagListRecord>(`SELECT ${L_COLS} FROM tag_lists l WHERE l.id = $1 FOR UPDATE`, [id]);
      return rows[0] ?? null;
    },
    listsOfProject: (projectId, updatedAfter) =>
      sql.query<TagListRecord>(
        `SELECT ${L_COLS} FROM tag_lists l WHERE l.project_id = $1 AND ($2::timestamptz IS NULL OR l.updated_at > $2)
         ORDER BY l.created_at, l.id`,
        [projectId, updatedAfter ?? null],
      ),
    async insertList(l) {
      await sql.query(
        `INSERT INTO tag_lists (id, api1_id, project_id, workzone_id, tag_list_type, name, description, color,
           metadata_definitions, attachments, created_at, created_by, updated_at, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $11, $12)`,
        [
          l.id, api1IdOf(l.id), l.projectId, l.workzoneId, l.tagListType, l.name, l.description, l.color,
          JSON.stringify(l.metadataDefinitions), l.attachments === null ? null : JSON.stringify(l.attachments), l.createdAt, l.createdBy,
        ],
      );
    },
    async updateList(id, f, by, now) {
      await sql.query(
        `UPDATE tag_lists SET workzone_id = $2, tag_list_type = $3, name = $4, description = $5, color = $6,
           metadata_definitions = $7, attachments = $8, updated_at = $9, updated_by = $10 WHERE id = $1`,
        [
          id, f.workzoneId, f.tagListType, f.name, f.description, f.color, JSON.stringify(f.metadataDefinitions),
          f.attachments === null ? null : JSON.stringify(f.attachments), now, by,
        ],
      );
    },
    async touchList(id, p) {
      await sql.query(
        `UPDATE tag_lists SET tags_version = $2, tag_count = $3, pending = $4, updated_at = $5, updated_by = COALESCE($6, updated_by)
         WHERE id = $1`,
        [id, p.version, p.tagCount, p.pending, p.now, p.by],
      );
    },
    async removeList(id) {
      await sql.query('DELETE FROM tag_lists WHERE id = $1', [id]);
    },
    tags(listId, filter) {
      if ('all' in filter) {
        return sql.query<TagRow>(`SELECT ${T_COLS} FROM tags WHERE list_id = $1 AND deleted_at IS NULL ORDER BY seq`, [listId]);
      }
      if ('afterVersion' in filter) {
        return sql.query<TagRow>(`SELECT ${T_COLS} FROM tags WHERE list_id = $1 AND version > $2 ORDER BY seq`, [listId, filter.afterVersion]);
      }
      return sql.query<TagRow>(`SELECT ${T_COLS} FROM tags WHERE list_id = $1 AND updated_at > $2 ORDER BY seq`, [listId, filter.since]);
    },
    tagsByIds: (listId, ids) =>
      sql.query<TagRow>(`SELECT ${T_COLS} FROM tags WHERE list_id = $1 AND id = ANY($2::uuid[]) ORDER BY seq`, [listId, ids]),
    async insertTags(listId, tags, version, by, now, shapes = []) {
      if (!tags.length) return;
      // Each shape's text is written with the row (the pieces read the columns of `s`).
      const params: unknown[] = [listId, tags.map((t) => t.id), tags.map((t) => t.data), version, now, by];
      const stored = storedColumns(shapes, params);
      const cols = stored.flatMap((c) => [`text_${c.g}`, `text_key_${c.g}`]);
      const values = stored.flatMap((c) => [c.text, c.key]);
      const extra = (xs: string[]) => xs.map((x) => `, ${x}`).join('');
      await sql.query(
        `INSERT INTO tags (list_id, id, data, version, created_at, created_by, updated_at, updated_by${extra(cols)})
         SELECT list_id, id, data, version, created_at, created_by, updated_at, updated_by${extra(values)}
         FROM (SELECT $1::uuid AS list_id, t.id, t.data::json AS data, $4::int AS version, $5::timestamptz AS created_at,
                 $6::uuid AS created_by, $5::timestamptz AS updated_at, $6::uuid AS updated_by,
                 NULL::timestamptz AS deleted_at, NULL::uuid AS deleted_by, t.n
               FROM unnest($2::uuid[], $3::text[]) WITH ORDINALITY AS t(id, data, n)) s ORDER BY s.n`,
        params,
      );
    },
    async updateTags(listId, tags, version, by, now) {
      if (!tags.length) return;
      await sql.query(
        `UPDATE tags SET data = t.data::json, version = $4, updated_at = $5, updated_by = $6, text_key_1 = NULL, text_key_2 = NULL
         FROM unnest($2::uuid[], $3::text[]) AS t(id, data) WHERE tags.list_id = $1 AND tags.id = t.id`,
        [listId, tags.map((t) => t.id), tags.map((t) => t.data), version, now, by],
      );
    },
    async deleteTags(listId, ids, version, by, now) {
      if (!ids.length) return [];
      const rows = await sql.query<{ id: string }>(
        `UPDATE tags SET version = $3, updated_at = $4, updated_by = $5, deleted_at = $4, deleted_by = $5, text_key_1 = NULL, text_key_2 = NULL
         WHERE list_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL RETURNING id`,
        [listId, ids, version, now, by],
      );
      return rows.map((r) => r.id);
    },
    async purgeTombstones(listId, ids) {
      if (!ids.length) return;
      await sql.query('DELETE FROM tags WHERE list_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NOT NULL', [listId, ids]);
    },
    async storeTagText(listId, shapes, which) {
      const params: unknown[] = [listId];
      const stored = storedColumns(shapes, params);
      if (!stored.length) return;
      const sets = stored.flatMap((c) => [`text_${c.g} = ${c.text}`, `text_key_${c.g} = ${c.key}`]);
      const stale = stored.map((c) => `text_key_${c.g} IS DISTINCT FROM ${c.key}`);
      // Rows written with their text (insertTags) already hold these keys; updates and
      // deletions cleared theirs.
      let where = `(${stale.join(' OR ')})`;
      if (which !== 'stale') {
        params.push(which.version);
        where += ` AND version = $${params.length}`;
      }
      await sql.query(`UPDATE tags SET ${sets.join(', ')} WHERE list_id = $1 AND ${where}`, params);
    },
    async subscriptionOfList(listId) {
      const rows = await sql.query<{ id: string; accountId: string; tagCapacity: number }>(
        `SELECT s.id, s.account_id AS "accountId", s.tag_capacity AS "tagCapacity" FROM tag_lists l JOIN projects p ON p.id = l.project_id
         JOIN subscriptions s ON s.id = p.subscription_id WHERE l.id = $1`,
        [listId],
      );
      return rows[0] ?? null;
    },
    async countForSubscription(subscriptionId) {
      const rows = await sql.query<{ n: number }>(
        `SELECT COALESCE(sum(l.tag_count), 0)::int AS n FROM tag_lists l JOIN projects p ON p.id = l.project_id
         WHERE p.subscription_id = $1`,
        [subscriptionId],
      );
      return rows[0]?.n ?? 0;
    },
  };
  return repo;
}
