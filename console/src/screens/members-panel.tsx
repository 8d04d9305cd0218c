// A zone's members: add a user (by e-mail) or a group with a role and an optional expiry,
// on the zone (the whole project from the root), and remove them; who reaches the zone
// comes from members/access.
import { useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { apiPath } from '../paths.ts';
import type { Group, MemberAccess, Role, Workzone } from '../types.ts';
import { Action, Empty, ErrorBox, Head, LoadState, deniedUnless, useAction, useLoad } from '../ui.tsx';
import { same, type Ctx } from './project-context.ts';

export function MembersPanel(props: { ctx: Ctx; zoneId: string; zones: Workzone[] }) {
  const { ctx, zoneId } = props;
  const access = useLoad(() => api<MemberAccess[]>('GET', apiPath`${ctx.base}/members/access`), `${ctx.base} access`);
  const roles = useLoad(() => api<Role[]>('GET', apiPath`/api/2/accounts/${ctx.accountId}/roles`), `${ctx.accountId} roles`);
  const [kind, setKind] = useState<'user' | 'group'>('user');
  const [email, setEmail] = useState('');
  const [groupId, setGroupId] = useState('');
  // The account's groups, read when the form turns to groups (needs account:groups:read).
  const groups = useLoad(
    () => (kind === 'group' ? api<Group[]>('GET', apiPath`/api/2/accounts/${ctx.accountId}/groups`) : Promise.resolve(undefined)),
    `${ctx.accountId} groups ${kind}`,
  );
  const [roleId, setRoleId] = useState('');
  const [expiry, setExpiry] = useState('');
  const [run, busy, error] = useAction();
  const writeDenied = deniedUnless(ctx.perms, 'workzone:members:write');
  const roleName = (id: string) => roles.data?.find((r) => same(r.id, id))?.name ?? id;
  const zoneName = (id: string) => props.zones.find((z) => same(z.id, id))?.name ?? id;
  const isRoot = same(zoneId, ctx.project.rootWorkzoneId);
  const here = (access.data ?? []).filter((m) => m.workzoneIds.some((w) => same(w, zoneId)));

  const add = async (e: Event) => {
    e.preventDefault();
    const role = roleId || roles.data?.[0]?.id;
    const group = groupId || groups.data?.[0]?.id;
    if (!role || (kind === 'user' ? !email.trim() : !group)) return;
    const expirationDate = expiry ? new Date(`${expiry}T23:59:59Z`).toISOString() : null;
    const members = kind === 'user' ? { users: [{ user: email.trim(), role, expirationDate }] } : { groups: [{ group, role, expirationDate }] };
    if (await run(() => api('POST', apiPath`${ctx.base}/members`, { members, workzones: isRoot ? null : [zoneId] }))) {
      setEmail('');
      setExpiry('');
      access.reload();
    }
  };
  const remove = (m: MemberAccess) =>
    run(() =>
      m.member.type === 'group'
        ? api('DELETE', apiPath`${ctx.base}/members/groups/${uuidOf(m.member.id)}`)
        : isRoot
          ? api('DELETE', apiPath`${ctx.base}/members/users/${uuidOf(m.member.id)}`)
          : api('DELETE', apiPath`${ctx.base}/workzones/${zoneId}/members/users/${uuidOf(m.member.id)}`),
    ).then((ok) => ok && access.reload());
  return (
    <div>
      <form class="grid-form" onSubmit={add} aria-label="Add a member">
        <fieldset class="choice">
          <legend>Add a</legend>
          {(['user', 'group'] as const).map((k) => (
            <label key={k}>
              <input type="radio" name="member-kind" value={k} checked={kind === k} disabled={Boolean(writeDenied)} onChange={() => setKind(k)} /> {k === 'user' ? 'User' : 'Group'}
            </label>
          ))}
        </fieldset>
        {kind === 'user' ? (
          <>
            <label for="member-email">E-mail of the user</label>
            <input id="member-email" type="email" value={email} disabled={Boolean(writeDenied)} onInput={(e) => setEmail(e.currentTarget.value)} />
          </>
        ) : (
          <>
            <label for="member-group">Group</label>
            <select id="member-group" value={groupId} disabled={Boolean(writeDenied) || !groups.data?.length} onChange={(e) => setGroupId(e.currentTarget.value)}>
              {groups.data?.length ? null : <option value="">{groups.loading ? 'Loading groups…' : 'No group in the account'}</option>}
              {(groups.data ?? []).map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </>
        )}
        <label for="member-role">Role</label>
        <select id="member-role" value={roleId} disabled={Boolean(writeDenied)} onChange={(e) => setRoleId(e.currentTarget.value)}>
          {(roles.data ?? []).map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
        <label for="member-expiry">Access until (optional)</label>
        <input id="member-expiry" type="date" value={expiry} disabled={Boolean(writeDenied)} onInput={(e) => setExpiry(e.currentTarget.value)} />
        <Action label="Add member" type="submit" kind="primary" denied={writeDenied} busy={busy} />
      </form>
      <ErrorBox error={error} />
      <LoadState of={[access, roles, groups]} what="members" />
      {access.data && here.length === 0 ? <Empty icon="users">No member reaches this zone.</Empty> : null}
      {here.length ? (
        <table class="members">
          <Head cols={['Member', 'Role', 'Until', 'Zones reached', 'Actions']} />
          <tbody>
            {here.map((m) => (
              <tr key={`${m.member.type}:${m.member.id}`}>
                <td class="member-name">{m.member.email ?? m.member.name ?? m.member.id}</td>
                <td>{roleName(m.roleId)}</td>
                <td class="member-expiry">{m.expirationDate ? new Date(m.expirationDate).toISOString().slice(0, 10) : 'no expiry'}</td>
                <td>{m.workzoneIds.map(zoneName).join(', ')}</td>
                <td>
                  <Action label={`Remove ${m.member.email ?? m.member.name ?? 'member'}`} kind="danger" denied={writeDenied} busy={busy} onClick={() => void remove(m)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
