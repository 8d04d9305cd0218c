// The integrations module's SQL (migrations 0029 and 0040): plain statements bound to an executor.
import type { Sql } from '../../../adapters/postgres/sql.ts';
import type {
  AccountKonektRecord, AutodeskConnectionRecord, AutodeskStateRecord, ClaimedLink, IntegrationLinkRecord, IntegrationsRepo, PlainToken, ProjectAutodeskRecord, ProjectKonektRecord,
} from '../core/ports.ts';

/** The sealed form (src/core/crypto/secret-box.ts looksSealed), as a PostgreSQL regular expression. */
const SEALED = `'^v1\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]*$'`;
/** Where each kind of token is kept: table, key column, token column. */
const TOKEN_COLUMNS: Record<PlainToken['column'], [string, string, string]> = {
  'konekt-token': ['account_konekt_integrations', 'id', 'token'],
  'autodesk-access-token': ['autodesk_connections', 'user_id', 'access_token'],
  'autodesk-refresh-token': ['autodesk_connections', 'user_id', 'refresh_token'],
};

const STAMP = 'created_at AS "createdAt", created_by AS "createdBy", updated_at AS "updatedAt", updated_by AS "updatedBy"';
const HUB = `id, account_id AS "accountId", konekt_id AS "konektId", name, beta, token, allow_create_new_users AS "allowCreateNewUsersOnHub",
  sync_strategy AS "syncStrategy", konekt_projects AS "konektProjects", ${STAMP}`;
const KONEKT = `k.project_id AS "projectId", k.hub_id AS "hubId", k.konekt_project_id AS "konektProjectId", k.allow_invite_users AS "allowInviteUsers",
  k.sync_strategy AS "syncStrategy", k.created_at AS "createdAt", k.created_by AS "createdBy", k.updated_at AS "updatedAt", k.updated_by AS "updatedBy"`;
const AUTODESK = `project_id AS "projectId", autodesk_hub_id AS "autodeskHubId", autodesk_project_id AS "autodeskProjectId", ${STAMP}`;
const CONNECTION = `user_id AS "userId", email, user_name AS "userName", first_name AS "firstName", last_name AS "lastName", hubs,
  access_token AS "accessToken", refresh_token AS "refreshToken", expires_at AS "expiresAt", connected_at AS "connectedAt"`;

export function integrationsRepo(sql: Sql): IntegrationsRepo {
  const one = async <T>(text: string, params: unknown[]): Promise<T | null> => (await sql.query<T>(text, params))[0] ?? null;
  const changed = async (text: string, params: unknown[]): Promise<boolean> => (await sql.query<{ n: number }>(text, params)).length > 0;

  return {
    plainTokens: (limit) => sql.query<PlainToken>(
      Object.entries(TOKEN_COLUMNS).map(([column, [table, key, token]]) =>
        `(SELECT '${column}' AS "column", ${key}::text AS "rowId", ${token} AS value FROM ${table} WHERE ${token} !~ ${SEALED} LIMIT $1)`).join(' UNION ALL ') + ' LIMIT $1',
      [limit],
    ),
    replaceToken(t, sealed) {
      const [table, key, token] = TOKEN_COLUMNS[t.column];
      return changed(`UPDATE ${table} SET ${token} = $3 WHERE ${key} = $1::uuid AND ${token} = $2 RETURNING 1 AS n`, [t.rowId, t.value, sealed]);
    },
    accountKonekts: (accountId) => sql.query<AccountKonektRecord>(`SELECT ${HUB} FROM account_konekt_integrations WHERE account_id = $1 ORDER BY created_at, id`, [accountId]),
    accountKonekt: (accountId, id) => one(`SELECT ${HUB} FROM account_konekt_integrations WHERE account_id = $1 AND id = $2`, [accountId, id]),
    accountKonektByHub: (accountId, konektId) => one(`SELECT ${HUB} FROM account_konekt_integrations WHERE account_id = $1 AND konekt_id = $2`, [accountId, konektId]),
    async insertAccountKonekt(r) {
      await sql.query(
        `INSERT INTO account_konekt_integrations (id, account_id, konekt_id, name, beta, token, allow_create_new_users, sync_strategy, konekt_projects,
           created_at, created_by, updated_at, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13)`,
        [r.id, r.accountId, r.konektId, r.name, r.beta, r.token, r.allowCreateNewUsersOnHub, r.syncStrategy, JSON.stringify(r.konektProjects),
          r.createdAt, r.createdBy, r.updatedAt, r.updatedBy],
      );
    },
    async updateAccountKonekt(r) {
      await sql.query(
        `UPDATE account_konekt_integrations SET name = $2, beta = $3, token = $4, allow_create_new_users = $5, sync_strategy = $6,
           konekt_projects = $7::jsonb, updated_at = $8, updated_by = $9 WHERE id = $1`,
        [r.id, r.name, r.beta, r.token, r.allowCreateNewUsersOnHub, r.syncStrategy, JSON.stringify(r.konektProjects), r.updatedAt, r.updatedBy],
      );
    },
    async removeAccountKonekt(id) {
      await sql.query('DELETE FROM account_konekt_integrations WHERE id = $1', [id]);
    },

    projectKonektsOfHub: (accountId, hubId) => sql.query<ProjectKonektRecord>(
      `SELECT ${KONEKT} FROM project_konekt_integrations k JOIN projects p ON p.id = k.project_id
       WHERE p.account_id = $1 AND k.hub_id = $2 ORDER BY k.created_at, k.project_id`,
      [accountId, hubId],
    ),
    projectKonekt: (projectId) => one(`SELECT ${KONEKT} FROM project_konekt_integrations k WHERE k.project_id = $1`, [projectId]),
    insertProjectKonekt: (r) => changed(
      `INSERT INTO project_konekt_integrations (project_id, hub_id, konekt_project_id, allow_invite_users, sync_strategy, created_at, created_by, updated_at, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (project_id) DO NOTHING RETURNING 1 AS n`,
      [r.projectId, r.hubId, r.konektProjectId, r.allowInviteUsers, r.syncStrategy, r.createdAt, r.createdBy, r.updatedAt, r.updatedBy],
    ),
    async updateProjectKonekt(r) {
      await sql.query(
        `UPDATE project_konekt_integrations SET hub_id = $2, konekt_project_id = $3, allow_invite_users = $4, sync_strategy = $5, updated_at = $6, updated_by = $7
         WHERE project_id = $1`,
        [r.projectId, r.hubId, r.konektProjectId, r.allowInviteUsers, r.syncStrategy, r.updatedAt, r.updatedBy],
      );
    },
    removeProjectKonekt: (projectId) => changed('DELETE FROM project_konekt_integrations WHERE project_id = $1 RETURNING 1 AS n', [projectId]),

    projectAutodesk: (projectId) => one<ProjectAutodeskRecord>(`SELECT ${AUTODESK} FROM project_autodesk_integrations WHERE project_id = $1`, [projectId]),
    insertProjectAutodesk: (r) => changed(
      `INSERT INTO project_autodesk_integrations (project_id, autodesk_hub_id, autodesk_project_id, created_at, created_by, updated_at, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (project_id) DO NOTHING RETURNING 1 AS n`,
      [r.projectId, r.autodeskHubId, r.autodeskProjectId, r.createdAt, r.createdBy, r.updatedAt, r.updatedBy],
    ),
    async updateProjectAutodesk(r) {
      await sql.query(
        'UPDATE project_autodesk_integrations SET autodesk_hub_id = $2, autodesk_project_id = $3, updated_at = $4, updated_by = $5 WHERE project_id = $1',
        [r.projectId, r.autodeskHubId, r.autodeskProjectId, r.updatedAt, r.updatedBy],
      );
    },
    removeProjectAutodesk: (projectId) => changed('DELETE FROM project_autodesk_integrations WHERE project_id = $1 RETURNING 1 AS n', [projectId]),

    autodeskConnection: (userId) => one<AutodeskConnectionRecord>(`SELECT ${CONNECTION} FROM autodesk_connections WHERE user_id = $1`, [userId]),
    async autodeskConnected(userIds) {
      if (!userIds.length) return new Set();
      const rows = await sql.query<{ userId: string }>('SELECT user_id AS "userId" FROM autodesk_connections WHERE user_id = ANY($1::uuid[])', [userIds]);
      return new Set(rows.map((r) => r.userId));
    },
    async upsertAutodeskConnection(r) {
      await sql.query(
        `INSERT INTO autodesk_connections (user_id, email, user_name, first_name, last_name, hubs, access_token, refresh_token, expires_at, connected_at)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10)
         ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, user_name = EXCLUDED.user_name, first_name = EXCLUDED.first_name,
           last_name = EXCLUDED.last_name, hubs = EXCLUDED.hubs, access_token = EXCLUDED.access_token, refresh_token = EXCLUDED.refresh_token,
           expires_at = EXCLUDED.expires_at, connected_at = EXCLUDED.connected_at`,
        [r.userId, r.email, r.userName, r.firstName, r.lastName, JSON.stringify(r.hubs), r.accessToken, r.refreshToken, r.expiresAt, r.connectedAt],
      );
    },
    removeAutodeskConnection: (userId) => changed('DELETE FROM autodesk_connections WHERE user_id = $1 RETURNING 1 AS n', [userId]),

    async insertAutodeskState(r) {
      await sql.query('INSERT INTO autodesk_connection_states (state_hash, user_id, redirect_uri, expires_at) VALUES ($1, $2, $3, $4)',
        [r.stateHash, r.userId, r.redirectUri, r.expiresAt]);
    },
    takeAutodeskState: (stateHash) => one<AutodeskStateRecord>(
      `DELETE FROM autodesk_connection_states WHERE state_hash = $1
       RETURNING state_hash AS "stateHash", user_id AS "userId", redirect_uri AS "redirectUri", expires_at AS "expiresAt"`,
      [stateHash],
    ),
    async pruneAutodeskStates(now) {
      return (await sql.query('DELETE FROM autodesk_connection_states WHERE expires_at <= $1 RETURNING 1 AS n', [now])).length;
    },

    links: (projectId) => sql.query<IntegrationLinkRecord>(
      `SELECT annotation_id AS "annotationId", project_id AS "projectId", integration_type AS "integrationType", url, state, failure,
         created_at AS "createdAt", created_by AS "createdBy"
       FROM annotation_integration_links WHERE project_id = $1 ORDER BY created_at, annotation_id, integration_type`,
      [projectId],
    ),
    async insertLinks(links) {
      if (!links.length) return;
      await sql.query(
        `INSERT INTO annotation_integration_links (annotation_id, project_id, integration_type, url, state, created_at, created_by, next_attempt_at)
         SELECT l.a::uuid, $2::uuid, l.t, NULL, 'pending', $3, $4, $3 FROM unnest($1::text[], $5::text[]) AS l(a, t)
         ON CONFLICT (annotation_id, integration_type) DO UPDATE SET state = 'pending', url = NULL, failure = NULL, external_id = NULL, attempts = 0,
           claimed_until = NULL, next_attempt_at = EXCLUDED.next_attempt_at, created_at = EXCLUDED.created_at, created_by = EXCLUDED.created_by
         WHERE annotation_integration_links.state = 'failed'`,
        [links.map((l) => l.annotationId), links[0]!.projectId, links[0]!.createdAt, links[0]!.createdBy, links.map((l) => l.integrationType)],
      );
    },
    claimLinks: (now, leaseUntil, limit) => sql.query<ClaimedLink>(
      // SKIP LOCKED: a link another node is claiming in the same instant is left to it.
      `WITH due AS (
         SELECT annotation_id, integration_type FROM annotation_integration_links
         WHERE state = 'pending' AND next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
         ORDER BY next_attempt_at, annotation_id, integration_type LIMIT $3 FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE annotation_integration_links l SET claimed_until = $2, attempts = l.attempts + 1
         FROM due WHERE l.annotation_id = due.annotation_id AND l.integration_type = due.integration_type
         RETURNING l.annotation_id, l.project_id, l.integration_type, l.attempts, l.claimed_until
       )
       SELECT c.annotation_id AS "annotationId", c.project_id AS "projectId", p.account_id AS "accountId", c.integration_type AS "integrationType",
         c.attempts, c.claimed_until AS "claimedUntil",
         json_build_object('number', a.number, 'title', a.title, 'description', a.description, 'annotationType', a.annotation_type, 'createdBy', a.created_by) AS annotation
       FROM claimed c JOIN annotations a ON a.id = c.annotation_id JOIN projects p ON p.id = c.project_id
       ORDER BY c.annotation_id, c.integration_type`,
      [now, leaseUntil, limit],
    ),
    settleLink(link, outcome) {
      const created = outcome.state === 'created' ? outcome : null;
      return changed(
        `UPDATE annotation_integration_links SET state = $4, url = $5, external_id = $6, failure = $7, next_attempt_at = COALESCE($8, next_attempt_at), claimed_until = NULL
         WHERE annotation_id = $1 AND integration_type = $2 AND claimed_until = $3 AND state = 'pending' RETURNING 1 AS n`,
        [link.annotationId, link.integrationType, link.claimedUntil, outcome.state, created?.url ?? null, created?.externalId ?? null,
          outcome.state === 'created' ? null : outcome.failure, outcome.state === 'pending' ? outcome.nextAttemptAt : null],
      );
    },
    replaceAutodeskTokens: (userId, previousAccess, next) => changed(
      'UPDATE autodesk_connections SET access_token = $3, refresh_token = $4, expires_at = $5 WHERE user_id = $1 AND access_token = $2 RETURNING 1 AS n',
      [userId, previousAccess, next.accessToken, next.refreshToken, next.expiresAt],
    ),
  };
}
