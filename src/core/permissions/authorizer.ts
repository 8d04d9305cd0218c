// What every use case calls first: resolves the scope, loads the caller's access facts
// (cached per user and scope, invalidated on change) and evaluates them; requirePermission
// is the one check of what they hold, refusing with the spec's 403 code and
// errorValues.requiredPermissions.
import type { CodeWithStatus } from '../error-codes.ts';
import { DomainError, notFound } from '../errors.ts';
import { type EntityRef, refValue } from '../ids/urn.ts';
import { refKey } from '../ids/refs.ts';
import type { AccountRecord } from '../ports/repositories.ts';
import { readsOf, storeReads, type ReadsOf, type StoreEvents } from '../ports/store-slices.ts';
import type { AnyPermission } from './catalog.ts';
import { accountPermissions, type AccountFacts } from './evaluate.ts';
import { AccessCache, ACCESS_TTL_MS } from './access-cache.ts';
import { CacheRegistry } from '../cache/registry.ts';
import { refusalValues } from './granted-by.ts';
import type { ConditionCheck } from './refusal-conditions.ts';
import { accountGrantOf, describeHeld, noteAccount, noteAllowed } from './decisions.ts';
import { cacheScope, dropOnInvalidation } from '../events/invalidation.ts';

export interface Actor {
  userId: string;
}

export interface AccountScope {
  account: AccountRecord;
  facts: AccountFacts;
  permissions: ReadonlySet<AnyPermission>;
}

/**
 * The spec's 403: `code` with errorValues.requiredPermissions, and our grantedBy (the account
 * roles that would grant them: granted-by.ts). Thrown by requirePermission only.
 */
const forbidden = (code: ForbiddenCode, required: readonly string[], message?: string) =>
  new DomainError('forbidden', code, message ?? `Requires ${required.join(', ')}`, refusalValues(required));

export type ForbiddenCode = CodeWithStatus<403>;

/**
 * What a check asks for: one permission, every permission of a list, or alternatives
 * (holding every permission of one list is enough: src/modules/files/core/file-permissions.ts).
 */
export type PermissionRule = AnyPermission | readonly AnyPermission[] | readonly (readonly AnyPermission[])[];

const isAlternatives = (rule: PermissionRule): rule is readonly (readonly AnyPermission[])[] =>
  Array.isArray(rule) && Array.isArray(rule[0]);

/** The permissions a refusal names: the rule's (of alternatives, the first). */
const named = (rule: PermissionRule): readonly AnyPermission[] =>
  typeof rule === 'string' ? [rule] : isAlternatives(rule) ? rule[0]! : (rule as readonly AnyPermission[]);

const satisfies = (held: ReadonlySet<string>, rule: PermissionRule): boolean =>
  typeof rule === 'string' ? held.has(rule)
    : isAlternatives(rule) ? rule.some((alt) => alt.every((p) => held.has(p)))
      : (rule as readonly AnyPermission[]).every((p) => held.has(p));

const isCondition = (held: ReadonlySet<string> | ConditionCheck): held is ConditionCheck => 'condition' in held;

/** What it reads of the store (src/core/ports/store-slices.ts). */
export const AUTHORIZER_READS = storeReads(['access']);

/**
 * The one permission check of the use cases, and the one way they refuse: throws 403
 * `code` unless the caller satisfies `rule`. `held` is what the caller holds where the
 * operation acts: an account scope's `permissions`, a project scope's `permissions`, or a
 * work zone's (`scope.workzone(id)`); or, for a refusal whose condition is a fact about the
 * caller, a named condition he was found to meet or not (`condition(name, holds)`,
 * refusal-conditions.ts), `rule` then being the permissions the refusal names.
 * errorValues.requiredPermissions lists the rule (of alternatives, the first). `message`
 * defaults to "Requires …"; a function receives the permissions missing from `held`.
 */
export function requirePermission(
  held: ReadonlySet<string> | ConditionCheck,
  rule: PermissionRule,
  code: ForbiddenCode,
  message?: string | ((missing: readonly AnyPermission[]) => string),
): void {
  if (isCondition(held) ? held.holds : satisfies(held, rule)) {
    // The audit log's "why allowed" (decisions.ts): of alternatives, the one held.
    if (isCondition(held)) noteAllowed(held, named(rule));
    else noteAllowed(held, isAlternatives(rule) ? rule.find((alt) => alt.every((p) => held.has(p)))! : named(rule));
    return;
  }
  const required = named(rule);
  const text = typeof message === 'function' ? message(isCondition(held) ? required : required.filter((p) => !held.has(p))) : message;
  throw forbidden(code, required, text);
}


/** What use cases call to check permissions on an account (the access facts cached per user and scope). */
export interface Authorizer {
  /** The per-node cache of account scopes, invalidated through the change feed. */
  cache: AccessCache<AccountScope | null>;
  /**
   * The caller's scope in an account; 404 account-not-found when there is no such account,
   * and the same when the caller is neither its owner nor a member: another tenant's
   * account answers as one that does not exist (docs/security.md "Existence across tenants").
   */
  account(actor: Actor, ref: EntityRef): Promise<AccountScope>;
}

/**
 * `caches`: the node's registry (GET /metrics); `maxEntries`: ACCESS_CACHE_ENTRIES, the callers'
 * account scopes kept (least recently read out first).
 */
export function createAuthorizer(deps: { store: ReadsOf<typeof AUTHORIZER_READS> & StoreEvents; caches?: CacheRegistry; maxEntries?: number }): Authorizer {
  const store = readsOf(deps.store, AUTHORIZER_READS);
  const cache = new AccessCache((deps.caches ?? new CacheRegistry()).lru<AccountScope | null>({
    name: 'account-access', maxWeight: deps.maxEntries ?? 50_000, ttlMs: ACCESS_TTL_MS,
  }));
  dropOnInvalidation(deps.store, cache);

  return {
    cache,
    /**
     * The caller's scope in an account; 404 account-not-found when there is no such account,
     * or when the caller is neither its owner nor a member.
     */
    async account(actor: Actor, ref: EntityRef): Promise<AccountScope> {
      const scope = await cache.get(
        `${actor.userId}|${refKey(ref)}`,
        async () => {
          const found = await store.repos.access.accountAccess(actor.userId, ref);
          if (!found) return null;
          const permissions = describeHeld(accountPermissions(found.facts), {
            accountId: found.account.id, grantOf: (p) => accountGrantOf(found.facts, p),
          });
          return { account: found.account, facts: found.facts, permissions };
        },
        (v) => (v ? [cacheScope.account(v.account.id), cacheScope.user(actor.userId)] : [cacheScope.user(actor.userId)]),
      );
      if (!scope || !(scope.facts.isMember || scope.facts.isOwner)) throw notFound('account', refValue(ref));
      noteAccount(scope.account.id);
      return scope;
    },
  };
}
