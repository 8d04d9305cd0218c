// The accounts module's SQL of subscriptions (its port: ../core/ports.ts SubscriptionsRepo).
import type { SubscriptionRecord, SubscriptionsRepo } from '../core/ports.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';

const COLS = `id, api1_id AS "api1Id", account_id AS "accountId", name, is_trial AS "isTrial", is_va AS "isVa",
  is_active AS "isActive", scan_capacity AS "scanCapacity", tag_capacity AS "tagCapacity",
  geo_image_capacity AS "geoImageCapacity", start_at AS "start", end_at AS "end",
  invite_account_owner_in_new_projects AS "inviteAccountOwnerInNewProjects",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

const COLUMN: Record<string, string> = {
  name: 'name', isTrial: 'is_trial', isVa: 'is_va', isActive: 'is_active', scanCapacity: 'scan_capacity',
  tagCapacity: 'tag_capacity', geoImageCapacity: 'geo_image_capacity', start: 'start_at', end: 'end_at',
  inviteAccountOwnerInNewProjects: 'invite_account_owner_in_new_projects',
};

export function subscriptionsRepo(sql: Sql): SubscriptionsRepo {
  const one = async (where: string, v: unknown) =>
    (await sql.query<SubscriptionRecord>(`SELECT ${COLS} FROM subscriptions WHERE ${where}`, [v]))[0] ?? null;
  return {
    byId: (id) => one('id = $1', id),
    byApi1Id: (api1Id) => one('api1_id = $1', api1Id),
    listByAccount: (accountId) =>
      sql.query<SubscriptionRecord>(`SELECT ${COLS} FROM subscriptions WHERE account_id = $1 ORDER BY created_at, id`, [
        accountId,
      ]),
    async insert(s, now) {
      const rows = await sql.query<SubscriptionRecord>(
        `INSERT INTO subscriptions (id, api1_id, account_id, name, is_trial, is_va, is_active, scan_capacity,
           tag_capacity, geo_image_capacity, start_at, end_at, invite_account_owner_in_new_projects, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) RETURNING ${COLS}`,
        [
          s.id, api1IdOf(s.id), s.accountId, s.name, s.isTrial, s.isVa, s.isActive, s.scanCapacity, s.tagCapacity,
          s.geoImageCapacity, s.start, s.end, s.inviteAccountOwnerInNewProjects, now,
        ],
      );
      return rows[0]!;
    },
    async update(id, patch, now) {
      const sets = ['updated_at = $2'];
      const params: unknown[] = [id, now];
      for (const [k, v] of Object.entries(patch)) {
        if (v === undefined || !COLUMN[k]) continue;
        params.push(v);
        sets.push(`${COLUMN[k]} = $${params.length}`);
      }
      await sql.query(`UPDATE subscriptions SET ${sets.join(', ')} WHERE id = $1`, params);
    },
  };
}
