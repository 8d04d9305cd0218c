// What every use case calls first: resolves the scope, loads the caller's access facts
// (cached per user and scope, invalidated on change), evaluates them, and refuses with
// the spec's 403 code and errorValues.requiredPermissions.
import { DomainError, notFound } from '../errors.ts';
import type { EntityRef } from '../ids/urn.ts';
import type { AccountRecord, Store } from '../ports/repositories.ts';
import type { AnyPermission } from './catalog.ts';
import { accountPermissions, type AccountFacts } from './evaluate.ts';
import { AccessCache } from './access-cache.ts';

export interface Actor {
  userId: string;
}

export interface AccountScope {
  account: AccountRecord;
  facts: AccountFacts;
  permissions: ReadonlySet<AnyPermission>;
}

export const forbidden = (code: string, required: readonly string[], message?: string) =>
  new DomainError('forbidden', code, message ?? `Requires ${required.join(', ')}`, {
    requiredPermissions: [...required],
  });

/** Throws the 403 unless every needed permission is held. */
export function requirePermissions(
  held: ReadonlySet<string>,
  needed: AnyPermission | readonly AnyPermission[],
  deniedCode: string,
): void {
  const list = typeof needed === 'string' ? [needed] : needed;
  if (!list.every((p) => held.has(p))) throw forbidden(deniedCode, list);
}

export const scopeKey = {
  account: (id: string) => `account:${id}`,
  user: (id: string) => `user:${id}`,
};

const refKey = (ref: EntityRef) => ('uuid' in ref ? ref.uuid : `api1:${ref.api1Id}`);

/** What use cases call to check permissions on an account (the access facts cached per user and scope). */
export interface Authorizer {
  /** The per-node cache of account scopes, invalidated through the change feed. */
  cache: AccessCache<AccountScope | null>;
  /** The caller's scope in an account; 404 account-not-found when there is no such account. */
  account(actor: Actor, ref: EntityRef): Promise<AccountScope>;
  /** Throws the 403 unless every needed permission is held. */
  require(held: ReadonlySet<string>, needed: AnyPermission | readonly AnyPermission[], deniedCode: string): void;
}

export function createAuthorizer(deps: { store: Store; cache?: AccessCache<AccountScope | null> }): Authorizer {
  const { store } = deps;
  const cache = deps.cache ?? new AccessCache<AccountScope | null>();
  store.onChange((scope) => (scope === '*' ? cache.clear() : cache.invalidate(scope)));

  return {
    cache,
    /** The caller's scope in an account; 404 account-not-found when there is no such account. */
    async account(actor: Actor, ref: EntityRef): Promise<AccountScope> {
      const scope = await cache.get(
        `${actor.userId}|${refKey(ref)}`,
        async () => {
          const found = await store.repos.access.accountAccess(actor.userId, ref);
          if (!found) return null;
          return { account: found.account, facts: found.facts, permissions: accountPermissions(found.facts) };
        },
        (v) => (v ? [scopeKey.account(v.account.id), scopeKey.user(actor.userId)] : [scopeKey.user(actor.userId)]),
      );
      if (!scope) throw notFound('account', 'uuid' in ref ? ref.uuid : ref.api1Id);
      return scope;
    },
    require: requirePermissions,
  };
}
