// An account's SCIM bearer token (docs/identity.md "SCIM provisioning"): created or rotated by
// an account administrator (account:administrators:write), shown once, stored as its SHA-256
// only; creating another replaces it at once, so rotation needs no second step. The SCIM
// surface finds the account of a presented token by its hash.
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { DomainError } from '../../../core/errors.ts';
import { sha256Hex } from '../../../core/crypto/digest.ts';
import type { EntityRef } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import { requirePermission, type AccountScope, type Actor, type Authorizer } from '../../../core/permissions/authorizer.ts';
import type { ScimTokenRecord, ScimRepos } from './ports.ts';

/** Tokens start with this, so a leaked one is recognisable (secret scanners, logs). */
export const TOKEN_PREFIX = 'scim_';

export interface ScimTokens {
  /** The account's token as an administrator sees it (never the token): null when none is set. */
  show(actor: Actor, accountRef: EntityRef): Promise<{ accountId: string; token: ScimTokenRecord | null }>;
  /** Creates the account's token, replacing the one before; answers it, once. */
  rotate(actor: Actor, accountRef: EntityRef): Promise<{ accountId: string; token: string; record: ScimTokenRecord }>;
  revoke(actor: Actor, accountRef: EntityRef): Promise<void>;
  /** The account a presented token is for; null for anything else. */
  accountOf(token: string): Promise<string | null>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const SCIM_TOKENS_STORE = storeUseOf<ScimRepos>()({ reads: ['scim'], writes: [] });

export function createScimTokens(deps: { store: SliceOf<typeof SCIM_TOKENS_STORE, ScimRepos>; clock: Clock; ids: Ids; authorizer: Authorizer }): ScimTokens {
  const { clock, ids, authorizer } = deps;
  const store = sliceOf(deps.store, SCIM_TOKENS_STORE);

  async function scope(actor: Actor, accountRef: EntityRef, write: boolean): Promise<AccountScope> {
    const account = await authorizer.account(actor, accountRef);
    if (write) requirePermission(account.permissions, 'account:administrators:write', 'manage-scim-forbidden');
    else requirePermission(account.permissions, 'account:administrators:read', 'read-scim-forbidden');
    return account;
  }

  return {
    async show(actor, accountRef) {
      const { account } = await scope(actor, accountRef, false);
      return { accountId: account.id, token: await store.repos.scim.token(account.id) };
    },
    async rotate(actor, accountRef) {
      const { account } = await scope(actor, accountRef, true);
      const token = `${TOKEN_PREFIX}${ids.secret(32)}`;
      const record: ScimTokenRecord = { accountId: account.id, tokenHash: sha256Hex(token), createdBy: actor.userId, createdAt: clock.now() };
      await store.repos.scim.putToken(record);
      return { accountId: account.id, token, record };
    },
    async revoke(actor, accountRef) {
      const { account } = await scope(actor, accountRef, true);
      if (!(await store.repos.scim.removeToken(account.id))) {
        throw new DomainError('not-found', 'scim-token-not-found', 'The account has no SCIM token', { accountId: account.id });
      }
    },
    async accountOf(token) {
      if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
      return store.repos.scim.accountOfToken(sha256Hex(token));
    },
  };
}
