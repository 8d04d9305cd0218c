// Roles of an account (spec "Role", CONTRACT §5): list, get, create, overwrite, delete;
// base roles are protected; permissions and legacy permissions stay equivalent.
import { eventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { RoleRecord, RolesRepos } from './ports.ts';
import { sliceOf, storeUseOf, type SliceOf, type StoreEvents } from '../../../core/ports/store-slices.ts';
import { requirePermission, type Actor, type Authorizer } from '../../../core/permissions/authorizer.ts';
import { cacheScope, dropOnInvalidation } from '../../../core/events/invalidation.ts';
import { AccessCache, ACCESS_TTL_MS } from '../../../core/permissions/access-cache.ts';
import { CacheRegistry } from '../../../core/cache/registry.ts';
import {
  BASE_ROLES, basePermissions, resolveRolePermissions, type LegacyPermission, type RolePermission,
} from '../../../core/permissions/role-rules.ts';
import './events.ts';
import './errors.ts';

export interface RoleInput {
  name?: string | null;
  description?: string | null;
  color?: string | null;
  permissions?: RolePermission[] | null;
  legacyPermissions?: LegacyPermission[] | null;
}


/** Creates the base roles of a new account (in the caller's transaction). */
export async function createBaseRoles(repos: RolesRepos, ids: Ids, accountId: string, createdBy: string | null, now: Date) {
  const existing = new Set((await repos.roles.listByAccount(accountId)).filter((r) => r.isBase).map((r) => r.name));
  for (const [i, base] of BASE_ROLES.entries()) {
    if (existing.has(base.name)) continue;
    await repos.roles.insert(
      {
        id: ids.uuid(),
       
        accountId,
        name: base.name,
        description: base.description,
        color: base.color,
        ...basePermissions(base.legacy),
        isBase: true,
        createdBy,
      },
      new Date(now.getTime() + i), // keeps the base roles listed in their table's order
    );
  }
}

/** Validates a role body into stored fields; 400 invalid-input naming the rule it breaks. */
export function roleFields(input: RoleInput) {
  const name = input.name?.trim();
  if (!name) throw invalidInput('name is required', { field: 'name' });
  const resolved = resolveRolePermissions(input.permissions, input.legacyPermissions);
  if ('rule' in resolved) {
    throw invalidInput(resolved.message, {
      field: resolved.rule === 'missing' ? 'permissions' : resolved.rule === 'mismatch' ? 'legacyPermissions' : 'permissions',
      ...(resolved.rule === 'mismatch' ? { expectedPermissions: resolved.expected } : {}),
    });
  }
  return {
    name,
    description: input.description ?? '',
    color: input.color ?? null,
    permissions: resolved.permissions as string[],
    legacyPermissions: resolved.legacyPermissions as string[],
  };
}

/** The custom roles of an account (spec "Role"). */
export interface Roles {
  /** The custom roles of the account. */
  listRoles(actor: Actor, accountRef: EntityRef): Promise<RoleRecord[]>;
  /** One custom role of the account. */
  getRole(actor: Actor, accountRef: EntityRef, roleRef: EntityRef): Promise<RoleRecord>;
  /** Creates a custom role from its permissions. */
  createRole(actor: Actor, accountRef: EntityRef, input: RoleInput): Promise<RoleRecord>;
  /** PUT overwrites every field: a missing field is erased (spec "Update role"). */
  updateRole(actor: Actor, accountRef: EntityRef, roleRef: EntityRef, input: RoleInput): Promise<RoleRecord>;
  /** Deletes a custom role; the access of its holders changes at once. */
  deleteRole(actor: Actor, accountRef: EntityRef, roleRef: EntityRef): Promise<void>;
}

/** What the roles use case reads (roles) and writes in its transactions (roles, events). */
export const ROLES_STORE = storeUseOf<Repos & RolesRepos>()({ reads: ['roles'], writes: ['events', 'roles'] });
export type RolesStore = SliceOf<typeof ROLES_STORE, Repos & RolesRepos> & StoreEvents;

/** `caches`: the node's registry (GET /metrics); `maxLists`: ROLE_LIST_CACHE_ENTRIES, the accounts whose role list is kept. */
export function createRoles(deps: { store: RolesStore; clock: Clock; ids: Ids; authorizer: Authorizer; caches?: CacheRegistry; maxLists?: number }): Roles {
  const { clock, ids, authorizer } = deps;
  const store = sliceOf(deps.store, ROLES_STORE);
  // The roles of an account, cached per node like access facts: dropped on every role event
  // of the account and on account.seeded (events/invalidation.ts, on every node after commit).
  const lists = new AccessCache((deps.caches ?? new CacheRegistry()).lru<RoleRecord[]>({
    name: 'role-lists', maxWeight: deps.maxLists ?? 10_000, ttlMs: ACCESS_TTL_MS,
  }));
  dropOnInvalidation(deps.store, lists);

  async function roleIn(accountId: string, ref: EntityRef): Promise<RoleRecord> {
    const role = await store.repos.roles.byRef(accountId, ref);
    if (!role) throw notFound('role', refValue(ref));
    return role;
  }

  return {
    async listRoles(actor: Actor, accountRef: EntityRef): Promise<RoleRecord[]> {
      const scope = await authorizer.account(actor, accountRef);
      requirePermission(scope.permissions, 'account:roles:read', 'list-roles-forbidden');
      const accountId = scope.account.id;
      return lists.get(accountId, () => store.repos.roles.listByAccount(accountId), () => [
        cacheScope.roles(accountId),
        cacheScope.account(accountId),
      ]);
    },

    async getRole(actor: Actor, accountRef: EntityRef, roleRef: EntityRef): Promise<RoleRecord> {
      const scope = await authorizer.account(actor, accountRef);
      requirePermission(scope.permissions, 'account:roles:read', 'view-role-forbidden');
      return roleIn(scope.account.id, roleRef);
    },

    async createRole(actor: Actor, accountRef: EntityRef, input: RoleInput): Promise<RoleRecord> {
      const scope = await authorizer.account(actor, accountRef);
      requirePermission(scope.permissions, 'account:roles:write', 'create-role-forbidden');
      const fields = roleFields(input);
      return store.transaction(async (repos) => {
        const now = clock.now();
        const role = await repos.roles.insert(
          { id: ids.uuid(), accountId: scope.account.id, ...fields, isBase: false, createdBy: actor.userId },
          now,
        );
        await repos.events.publish(eventOf('role.created', scope.account.id, subjectOf('role', role.id), { roleId: role.id }), now);
        return role;
      });
    },

    /** PUT overwrites every field: a missing field is erased (spec "Update role"). */
    async updateRole(actor: Actor, accountRef: EntityRef, roleRef: EntityRef, input: RoleInput): Promise<RoleRecord> {
      const scope = await authorizer.account(actor, accountRef);
      requirePermission(scope.permissions, 'account:roles:write', 'update-role-forbidden');
      const role = await roleIn(scope.account.id, roleRef);
      if (role.isBase) throw new DomainError('invalid', 'cannot-update-base-role', "Base roles can't be updated");
      const fields = roleFields(input);
      return store.transaction(async (repos) => {
        const now = clock.now();
        const updated = await repos.roles.update(role.id, fields, now);
        await repos.events.publish(eventOf('role.updated', scope.account.id, subjectOf('role', role.id), { roleId: role.id }), now);
        return updated;
      });
    },

    async deleteRole(actor: Actor, accountRef: EntityRef, roleRef: EntityRef): Promise<void> {
      const scope = await authorizer.account(actor, accountRef);
      requirePermission(scope.permissions, 'account:roles:write', 'delete-role-forbidden');
      const role = await roleIn(scope.account.id, roleRef);
      if (role.isBase) throw new DomainError('invalid', 'cannot-delete-base-role', "Base roles can't be deleted");
      await store.transaction(async (repos) => {
        const projectIds = await repos.roles.usage(role.id);
        if (projectIds.length) {
          throw new DomainError('invalid', 'role-used', `Role ${role.id} is in use in projects ${projectIds.join(', ')}`, {
            roleId: role.id,
            projectIds: projectIds.join(', '),
          });
        }
        await repos.roles.remove(role.id);
        await repos.events.publish(eventOf('role.deleted', scope.account.id, subjectOf('role', role.id), { roleId: role.id }), clock.now());
      });
    },
  };
}
