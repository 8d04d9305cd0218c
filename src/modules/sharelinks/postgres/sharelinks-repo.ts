// The share-links module's SQL (migrations 0028, 0038): plain statements bound to an executor.
import type { Sql } from '../../../adapters/postgres/sql.ts';
import type { ShareLinkFields, ShareLinkRecord, ShareLinkSessionRecord, ShareLinksRepo } from '../core/ports.ts';

const COLS = `l.id, l.project_id AS "projectId", l.workzone_id AS "workzoneId", l.shared_workzone_ids AS "sharedWorkzoneIds", l.name,
  l.password_hash AS "passwordHash", l.expires_at AS "expiresAt", l.logo_blob AS "logoBlob", l.membership_required AS "membershipRequired",
  l.share_options AS "shareOptions", l.saved_view AS "savedView", l.box_limit AS "boxLimit", l.created_at AS "createdAt", l.created_by AS "createdBy"`;

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** The columns a create and a PUT write, from $2 on ($1 is the id). */
const fieldParams = (f: ShareLinkFields): unknown[] => [
  f.name, JSON.stringify(f.sharedWorkzoneIds), f.passwordHash, f.expiresAt, f.logoBlob, f.membershipRequired, JSON.stringify(f.shareOptions), json(f.savedView), json(f.boxLimit),
];

export function shareLinksRepo(sql: Sql): ShareLinksRepo {
  return {
    async byId(id) {
      return (await sql.query<ShareLinkRecord>(`SELECT ${COLS} FROM share_links l WHERE l.id = $1`, [id]))[0] ?? null;
    },
    async list(projectId) {
      return sql.query<ShareLinkRecord>(`SELECT ${COLS} FROM share_links l WHERE l.project_id = $1 ORDER BY l.created_at, l.id`, [projectId]);
    },
    async insert(l) {
      await sql.query(
        `INSERT INTO share_links (id, name, shared_workzone_ids, password_hash, expires_at, logo_blob, membership_required, share_options, saved_view, box_limit,
           project_id, workzone_id, created_at, created_by)
         VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb, $11, $12, $13, $14)`,
        [l.id, ...fieldParams(l), l.projectId, l.workzoneId, l.createdAt, l.createdBy],
      );
    },
    async update(id, f) {
      await sql.query(
        `UPDATE share_links SET name = $2, shared_workzone_ids = $3::jsonb, password_hash = $4, expires_at = $5, logo_blob = $6,
           membership_required = $7, share_options = $8::jsonb, saved_view = $9::jsonb, box_limit = $10::jsonb
         WHERE id = $1`,
        [id, ...fieldParams(f)],
      );
    },
    async remove(id) {
      await sql.query('DELETE FROM share_links WHERE id = $1', [id]);
    },
    async insertSession(s) {
      await sql.query(
        'INSERT INTO share_link_sessions (token_hash, share_link_id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [s.tokenHash, s.shareLinkId, s.userId, s.createdAt, s.expiresAt],
      );
    },
    async sessionWithLink(tokenHash) {
      const rows = await sql.query<ShareLinkRecord & { session: ShareLinkSessionRecord }>(
        `SELECT ${COLS}, json_build_object('tokenHash', s.token_hash, 'shareLinkId', s.share_link_id, 'userId', s.user_id,
           'createdAt', s.created_at, 'expiresAt', s.expires_at) AS session
         FROM share_link_sessions s JOIN share_links l ON l.id = s.share_link_id WHERE s.token_hash = $1`,
        [tokenHash],
      );
      const r = rows[0];
      if (!r) return null;
      const { session, ...link } = r;
      return {
        link,
        session: { ...session, createdAt: new Date(session.createdAt), expiresAt: new Date(session.expiresAt) },
      };
    },
    async removeSessions(shareLinkId) {
      await sql.query('DELETE FROM share_link_sessions WHERE share_link_id = $1', [shareLinkId]);
    },
  };
}
