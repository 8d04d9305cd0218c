import type { NewUser, UserRecord, UsersRepo, UserTokenState } from '../../../core/ports/repositories.ts';
import type { Sql } from '../sql.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';

const COLS = `id, api1_id AS "api1Id", email, first_name AS "firstName", last_name AS "lastName", company, title,
  password_hash AS "passwordHash", invited_by AS "invitedBy", invited_at AS "invitedAt",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

const first = <T>(rows: T[]): T | null => rows[0] ?? null;

export function usersRepo(sql: Sql): UsersRepo {
  return {
    byId: async (id) => first(await sql.query<UserRecord>(`SELECT ${COLS} FROM users WHERE id = $1`, [id])),
    byApi1Id: async (api1Id) =>
      first(await sql.query<UserRecord>(`SELECT ${COLS} FROM users WHERE api1_id = $1`, [api1Id])),
    byEmail: async (email) =>
      first(await sql.query<UserRecord>(`SELECT ${COLS} FROM users WHERE lower(email) = lower($1)`, [email])),
    list: (limit) => sql.query<UserRecord>(`SELECT ${COLS} FROM users ORDER BY lower(email) LIMIT $1`, [limit]),
    async insert(u: NewUser, now) {
      const rows = await sql.query<UserRecord>(
        `INSERT INTO users (id, api1_id, email, first_name, last_name, company, title, password_hash,
           invited_by, invited_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING ${COLS}`,
        [u.id, api1IdOf(u.id), u.email, u.firstName, u.lastName, u.company, u.title, u.passwordHash, u.invitedBy, u.invitedAt, now],
      );
      return rows[0]!;
    },
    async update(id, patch, now) {
      const map: Record<string, string> = {
        firstName: 'first_name',
        lastName: 'last_name',
        company: 'company',
        title: 'title',
        passwordHash: 'password_hash',
      };
      const sets: string[] = [];
      const params: unknown[] = [id, now];
      for (const [k, v] of Object.entries(patch)) {
        if (v === undefined || !map[k]) continue;
        params.push(v);
        sets.push(`${map[k]} = $${params.length}`);
      }
      await sql.query(`UPDATE users SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE id = $1`, params);
    },
    async lock(id) {
      return first(await sql.query<UserTokenState>('SELECT tokens_valid_after AS "tokensValidAfter" FROM users WHERE id = $1 FOR UPDATE', [id]));
    },
    tokenState: async (id) =>
      first(await sql.query<UserTokenState>('SELECT tokens_valid_after AS "tokensValidAfter" FROM users WHERE id = $1', [id])),
  };
}
