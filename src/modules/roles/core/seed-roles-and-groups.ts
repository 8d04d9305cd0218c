// The seed document's roles and groups (CONTRACT §3): every account gets its base roles;
// roles and groups are matched by fixed id or name, and re-applying changes nothing. The
// roles module's seed extension (src/modules/roles/module.ts), applied by the operator module's seeder.
import type { GroupsRepos } from '../../groups/index.ts';
import { invalidInput } from '../../../core/errors.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { SeedAccountExtension } from '../../operator/index.ts';
import { createBaseRoles, roleFields, type RoleInput } from './roles.ts';
import type { RolesRepos } from './ports.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

interface SeedRole extends RoleInput {
  id?: string;
}

interface SeedGroup {
  id?: string;
  name: string;
  description?: string;
  color?: string;
  users?: string[];
}

/** Fixed ids compare in lower case, as the database stores them, so re-applying a seed is a no-op. */
const fixedId = (id: unknown): string | undefined => (typeof id === 'string' ? id.toLowerCase() : (id as undefined));

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function seedRolesAndGroups(ids: Ids, clock: Clock): SeedAccountExtension {
  return async (kernelRepos, { id: accountId, seed, userIdOf }) => {
    // The seeder types its transaction's repositories as the kernel's; the store binds every
    // module's repositories into each transaction (src/adapters/postgres/store.ts).
    const repos = kernelRepos as Repos & AccountsRepos & RolesRepos & GroupsRepos;
    const now = clock.now();
    const owner = await repos.accounts.byId(accountId);
    await createBaseRoles(repos, ids, accountId, owner?.ownerId ?? null, now);

    const roles: { name: string; id: string }[] = [];
    const existingRoles = await repos.roles.listByAccount(accountId);
    for (const raw of (seed.roles ?? []) as SeedRole[]) {
      const fields = roleFields(raw);
      const roleId = fixedId(raw.id);
      const match = existingRoles.find((r) => (roleId ? r.id === roleId : r.name === fields.name));
      if (match?.isBase) throw invalidInput(`The base role ${match.name} cannot be changed`, { role: match.name });
      if (match) {
        const differs =
          match.name !== fields.name || match.description !== fields.description || match.color !== fields.color ||
          !sameList(match.permissions, fields.permissions) || !sameList(match.legacyPermissions, fields.legacyPermissions);
        if (differs) await repos.roles.update(match.id, fields, now);
        roles.push({ name: fields.name, id: match.id });
      } else {
        const created = await repos.roles.insert(
          { id: roleId ?? ids.uuid(), accountId, ...fields, isBase: false, createdBy: owner?.ownerId ?? null },
          now,
        );
        roles.push({ name: fields.name, id: created.id });
      }
    }

    const groups: { name: string; id: string }[] = [];
    for (const g of (seed.groups ?? []) as SeedGroup[]) {
      if (typeof g.name !== 'string' || !g.name.trim()) throw invalidInput('Every seeded group needs a name', { field: 'groups.name' });
      const groupFixedId = fixedId(g.id);
      const match =
        (groupFixedId ? await repos.groups.byRef(accountId, { uuid: groupFixedId }) : null) ??
        (await repos.groups.byName(accountId, g.name));
      const fields = { name: g.name.trim(), description: g.description ?? '', color: g.color ?? null };
      let groupId: string;
      if (match) {
        groupId = match.id;
        if (match.name !== fields.name || match.description !== fields.description || match.color !== fields.color) {
          await repos.groups.update(groupId, fields, now);
        }
      } else {
        groupId = (
          await repos.groups.insert({ id: groupFixedId ?? ids.uuid(), accountId, ...fields, createdBy: owner?.ownerId ?? null }, now)
        ).id;
      }
      const wanted: string[] = [];
      for (const email of g.users ?? []) {
        const userId = await userIdOf(email);
        if (!(await repos.accounts.member(accountId, userId))) {
          throw invalidInput(`${email} must be a member of the account to join the group ${fields.name}`, { email });
        }
        wanted.push(userId);
      }
      const current = match?.userIds ?? [];
      const toAdd = wanted.filter((u) => !current.includes(u));
      const toRemove = current.filter((u) => !wanted.includes(u));
      if (toAdd.length) await repos.groups.addMembers(groupId, toAdd, now);
      if (toRemove.length) await repos.groups.removeMembers(groupId, toRemove);
      groups.push({ name: fields.name, id: groupId });
    }
    return { roles, groups }; // the seed publishes account.seeded

  };
}
