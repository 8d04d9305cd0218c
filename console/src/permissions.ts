// What the signed-in user may do in a work zone, from public API data only (the spec's
// membership rules, docs/permissions.md): the project's owner holds every work-zone
// permission; otherwise the active grants (members/access) of the user, and of the groups
// the user is in, that reach the zone give their role's permissions; an account user
// administrator (owner, administrator, project manager) may also manage members.
// The service stays the judge: a refused write still shows its 403 and requiredPermissions.
import { A2, api, uuidOf } from './api.ts';
import type { Account, Group, MemberAccess, Project, Role } from './types.ts';


const same = (a: string, b: string) => uuidOf(a) === uuidOf(b);

export async function zonePermissions(accountId: string, project: Project, zoneId: string, userId: string): Promise<Set<string>> {
  if (same(project.ownerId, userId)) return new Set(['*']);
  const account = `${A2}/accounts/${accountId}`;
  const [access, roles, acc] = await Promise.all([
    api<MemberAccess[]>('GET', `${account}/projects/${uuidOf(project.id)}/members/access`),
    api<Role[]>('GET', `${account}/roles`),
    api<Account>('GET', account),
  ]);
  const now = Date.now();
  const reaching = access.filter(
    (m) => m.workzoneIds.some((w) => same(w, zoneId)) && (!m.expirationDate || Date.parse(m.expirationDate) > now),
  );
  let myGroups: Group[] = [];
  if (reaching.some((m) => m.member.type === 'group')) {
    myGroups = (await api<Group[]>('GET', `${account}/groups`)).filter((g) => g.userIds.some((u) => same(u, userId)));
  }
  const out = new Set<string>();
  for (const m of reaching) {
    const mine = m.member.type === 'user' ? same(m.member.id, userId) : myGroups.some((g) => same(g.id, m.member.id));
    if (!mine) continue;
    out.add('workzone:workzones:read');
    for (const p of roles.find((r) => same(r.id, m.roleId))?.permissions ?? []) out.add(p);
  }
  const p = acc.permissions;
  if (p.isOwner || p.isAdmin || p.isManager) out.add('workzone:members:write');
  return out;
}

/** Whether a permission set (from zonePermissions; '*' = all) holds `permission`. */
export const holds = (granted: ReadonlySet<string>, permission: string) => granted.has('*') || granted.has(permission);
