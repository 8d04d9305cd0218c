// The SSO tables (migration 0027_sso.sql; ../core/ports.ts SsoRepo), plain SQL on one executor.
import type { Sql } from '../../../adapters/postgres/sql.ts';
import { uniqueOr409 } from '../../../adapters/postgres/repos/unique.ts';
import type { SamlRequestRecord, SsoDomainRecord, SsoLoginRecord, SsoMappingRuleRecord, SsoProviderRecord, SsoRepo } from '../core/ports.ts';

const PROVIDER_COLS = `account_id AS "accountId", protocol, saml, display_name AS "displayName", issuer, client_id AS "clientId",
  client_secret_sealed AS "clientSecretSealed", scopes, enabled, created_at AS "createdAt", updated_at AS "updatedAt"`;
const DOMAIN_COLS = `account_id AS "accountId", domain, verification_token_hash AS "verificationTokenHash",
  verified_at AS "verifiedAt", require_sso AS "requireSso", created_at AS "createdAt"`;
const RULE_COLS = `id, account_id AS "accountId", claim, value, group_id AS "groupId", account_role AS "accountRole", created_at AS "createdAt"`;
const LOGIN_COLS = `state_hash AS "stateHash", account_id AS "accountId", browser_hash AS "browserHash", code_verifier AS "codeVerifier",
  nonce, login_hint AS "loginHint", return_to AS "returnTo", expires_at AS "expiresAt"`;
const SAML_REQUEST_COLS = `request_id AS "requestId", account_id AS "accountId", browser_hash AS "browserHash", login_hint AS "loginHint",
  return_to AS "returnTo", identity, expires_at AS "expiresAt"`;

export function ssoRepo(sql: Sql): SsoRepo {
  const one = async <T>(q: Promise<T[]>): Promise<T | null> => (await q)[0] ?? null;
  return {
    provider: (accountId) => one(sql.query<SsoProviderRecord>(`SELECT ${PROVIDER_COLS} FROM sso_providers WHERE account_id = $1`, [accountId])),
    async putProvider(p, now) {
      const [row] = await sql.query<SsoProviderRecord>(
        `INSERT INTO sso_providers (account_id, display_name, issuer, client_id, client_secret_sealed, scopes, enabled, created_at, updated_at, protocol, saml)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10)
         ON CONFLICT (account_id) DO UPDATE SET display_name = $2, issuer = $3, client_id = $4, client_secret_sealed = $5,
           scopes = $6, enabled = $7, updated_at = $8, protocol = $9, saml = $10
         RETURNING ${PROVIDER_COLS}`,
        [p.accountId, p.displayName, p.issuer, p.clientId, p.clientSecretSealed, p.scopes, p.enabled, now, p.protocol, p.saml && JSON.stringify(p.saml)],
      );
      return row!;
    },
    async removeProvider(accountId) {
      return (await sql.query('DELETE FROM sso_providers WHERE account_id = $1 RETURNING 1', [accountId])).length > 0;
    },

    domains: (accountId) => sql.query<SsoDomainRecord>(`SELECT ${DOMAIN_COLS} FROM sso_domains WHERE account_id = $1 ORDER BY domain`, [accountId]),
    domain: (accountId, domain) =>
      one(sql.query<SsoDomainRecord>(`SELECT ${DOMAIN_COLS} FROM sso_domains WHERE account_id = $1 AND domain = $2`, [accountId, domain])),
    verifiedDomain: (domain) =>
      one(sql.query<SsoDomainRecord>(`SELECT ${DOMAIN_COLS} FROM sso_domains WHERE domain = $1 AND verified_at IS NOT NULL`, [domain])),
    pendingDomains: (domain) =>
      sql.query<SsoDomainRecord>(`SELECT ${DOMAIN_COLS} FROM sso_domains WHERE domain = $1 AND verified_at IS NULL`, [domain]),
    async insertDomain(d) {
      await sql.query(
        `INSERT INTO sso_domains (account_id, domain, verification_token_hash, verified_at, require_sso, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [d.accountId, d.domain, d.verificationTokenHash, d.verifiedAt, d.requireSso, d.createdAt],
      );
    },
    async verifyDomain(accountId, domain, now) {
      await uniqueOr409(sql.query('UPDATE sso_domains SET verified_at = $3 WHERE account_id = $1 AND domain = $2', [accountId, domain, now]));
    },
    async setRequireSso(accountId, domain, requireSso) {
      await sql.query('UPDATE sso_domains SET require_sso = $3 WHERE account_id = $1 AND domain = $2', [accountId, domain, requireSso]);
    },
    async removeDomain(accountId, domain) {
      return (await sql.query('DELETE FROM sso_domains WHERE account_id = $1 AND domain = $2 RETURNING 1', [accountId, domain])).length > 0;
    },

    rules: (accountId) =>
      sql.query<SsoMappingRuleRecord>(`SELECT ${RULE_COLS} FROM sso_mapping_rules WHERE account_id = $1 ORDER BY created_at, id`, [accountId]),
    async insertRule(r) {
      await sql.query(
        `INSERT INTO sso_mapping_rules (id, account_id, claim, value, group_id, account_role, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [r.id, r.accountId, r.claim, r.value, r.groupId, r.accountRole, r.createdAt],
      );
    },
    async updateRule(r) {
      return one(sql.query<SsoMappingRuleRecord>(
        `UPDATE sso_mapping_rules SET claim = $3, value = $4, group_id = $5, account_role = $6 WHERE account_id = $1 AND id = $2 RETURNING ${RULE_COLS}`,
        [r.accountId, r.id, r.claim, r.value, r.groupId, r.accountRole],
      ));
    },
    async removeRule(accountId, id) {
      return (await sql.query('DELETE FROM sso_mapping_rules WHERE account_id = $1 AND id = $2 RETURNING 1', [accountId, id])).length > 0;
    },

    async identity(accountId, issuer, subject) {
      const row = await one(sql.query<{ userId: string }>(
        'SELECT user_id AS "userId" FROM sso_identities WHERE account_id = $1 AND issuer = $2 AND subject = $3', [accountId, issuer, subject],
      ));
      return row?.userId ?? null;
    },
    async linkIdentity(p, now) {
      await sql.query(
        `INSERT INTO sso_identities (account_id, issuer, subject, user_id, created_at, last_sign_in_at) VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (account_id, issuer, subject) DO UPDATE SET last_sign_in_at = $5`,
        [p.accountId, p.issuer, p.subject, p.userId, now],
      );
    },

    async insertLogin(l: SsoLoginRecord) {
      await sql.query(
        `INSERT INTO sso_logins (state_hash, account_id, browser_hash, code_verifier, nonce, login_hint, return_to, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [l.stateHash, l.accountId, l.browserHash, l.codeVerifier, l.nonce, l.loginHint, JSON.stringify(l.returnTo), l.expiresAt],
      );
    },
    takeLogin: (stateHash, now) =>
      one(sql.query<SsoLoginRecord>(`DELETE FROM sso_logins WHERE state_hash = $1 AND expires_at > $2 RETURNING ${LOGIN_COLS}`, [stateHash, now])),
    async insertSamlRequest(r: SamlRequestRecord) {
      await sql.query(
        `INSERT INTO sso_saml_requests (request_id, account_id, browser_hash, login_hint, return_to, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [r.requestId, r.accountId, r.browserHash, r.loginHint, JSON.stringify(r.returnTo), r.expiresAt],
      );
    },
    async settleSamlRequest(p, now) {
      const rows = await sql.query(
        `UPDATE sso_saml_requests SET ticket_hash = $3, identity = $4
         WHERE request_id = $1 AND account_id = $2 AND ticket_hash IS NULL AND expires_at > $5 RETURNING 1`,
        [p.requestId, p.accountId, p.ticketHash, JSON.stringify(p.identity), now],
      );
      return rows.length > 0;
    },
    takeSamlTicket: (ticketHash, now) =>
      one(sql.query<SamlRequestRecord & { identity: Record<string, unknown> }>(
        `DELETE FROM sso_saml_requests WHERE ticket_hash = $1 AND expires_at > $2 RETURNING ${SAML_REQUEST_COLS}`, [ticketHash, now],
      )),
    async rememberAssertion(p) {
      const rows = await sql.query(
        `INSERT INTO sso_saml_assertions (issuer, assertion_id, account_id, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (issuer, assertion_id) DO NOTHING RETURNING 1`,
        [p.issuer, p.assertionId, p.accountId, p.expiresAt],
      );
      return rows.length > 0;
    },
    async pruneLogins(now) {
      const [row] = await sql.query<{ n: number }>(
        `WITH l AS (DELETE FROM sso_logins WHERE expires_at <= $1 RETURNING 1),
              r AS (DELETE FROM sso_saml_requests WHERE expires_at <= $1 RETURNING 1),
              a AS (DELETE FROM sso_saml_assertions WHERE expires_at <= $1 RETURNING 1)
         SELECT ((SELECT count(*) FROM l) + (SELECT count(*) FROM r) + (SELECT count(*) FROM a))::int AS n`,
        [now],
      );
      return row!.n;
    },
  };
}
