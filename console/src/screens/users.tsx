// An account's users: the list with their account roles, and invitations (an e-mail with
// a link to set a password; optional account roles), for owners, administrators and
// project managers (account:users:write).
import { useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { apiPath } from '../paths.ts';
import type { Account, User } from '../types.ts';
import { AccountPage, Action, Empty, ErrorBox, Head, Loading, useAction, useLoad } from '../ui.tsx';


const ROLES = [
  ['administrator', 'Administrator'],
  ['projectManager', 'Project manager'],
  ['projectLister', 'Project lister'],
] as const;

/**
 * A user's row; the account roles are edited in place (PUT …/members/{user}/roles); the
 * user is removed from the account with DELETE …/members (the service refuses the account
 * owner and project owners, with its reason).
 */
function UserRow(props: { user: User; accountUrl: string; denied: string | null; onChange: () => void }) {
  const u = props.user;
  const [editing, setEditing] = useState<string[] | null>(null);
  const [run, busy, error] = useAction();
  const label = `${u.firstName} ${u.lastName}`.trim() || u.email;
  return (
    <tr>
      <td>{u.email}</td>
      <td>{`${u.firstName} ${u.lastName}`.trim() || '—'}</td>
      <td>
        {editing ? (
          <fieldset class="roles">
            <legend>Account roles of {label}</legend>
            {ROLES.map(([id, name]) => (
              <label key={id}>
                <input type="checkbox" checked={editing.includes(id)} onChange={(e) => setEditing(e.currentTarget.checked ? [...editing, id] : editing.filter((r) => r !== id))} />{' '}
                {name}
              </label>
            ))}
            <Action label={`Save roles of ${label}`} kind="primary" busy={busy} onClick={() => void run(() => api('PUT', `${props.accountUrl}/members/${uuidOf(u.id)}/roles`, editing)).then((ok) => ok && (setEditing(null), props.onChange()))} />
          </fieldset>
        ) : (
          <>
            {(u.accountRoles ?? []).map((r) => ROLES.find(([id]) => id === r)?.[1] ?? r).join(', ') || 'member'}{' '}
            {props.denied ? null : (
              <button type="button" class="plain" onClick={() => setEditing(u.accountRoles ?? [])}>
                Change roles of {label}
              </button>
            )}
          </>
        )}
        <ErrorBox error={error} />
      </td>
      <td>{u.invitedAt ? new Date(u.invitedAt).toISOString().slice(0, 10) : '—'}</td>
      <td>
        {props.denied ? null : (
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() =>
              confirm(`Remove ${u.email} from the account? They lose access to its projects.`) &&
              void run(() => api('DELETE', `${props.accountUrl}/members`, [u.id])).then((ok) => ok && props.onChange())
            }
          >
            Remove {u.email}
          </button>
        )}
      </td>
    </tr>
  );
}

/** account:users:read/write: owners, administrators and project managers (docs/permissions.md). */
const managesUsers = (a: Account) => a.permissions.isOwner || a.permissions.isAdmin || a.permissions.isManager;

export function UsersScreen(props: { accountId: string }) {
  const base = apiPath`/api/2/accounts/${props.accountId}`;
  const account = useLoad(() => api<Account>('GET', base), String(base));
  const users = useLoad(() => api<User[]>('GET', `${base}/users`), `${base} users`);
  const [email, setEmail] = useState('');
  const [roles, setRoles] = useState<string[]>([]);
  const [run, busy, error] = useAction();
  const denied = !account.data ? 'Checking your permissions…' : managesUsers(account.data) ? null : 'Needs account:users:write';

  const invite = async (e: Event) => {
    e.preventDefault();
    if (!email.trim()) return;
    if (await run(() => api('POST', `${base}/users/bulk-invite`, [{ email: email.trim(), roles }]))) {
      setEmail('');
      setRoles([]);
      users.reload();
    }
  };
  return (
    <AccountPage accountId={props.accountId} title="Users">
      <form class="grid-form" onSubmit={invite} aria-label="Invite a user">
        <label for="invite-email">E-mail to invite</label>
        <input id="invite-email" type="email" value={email} disabled={Boolean(denied)} onInput={(e) => setEmail(e.currentTarget.value)} />
        <fieldset class="roles" disabled={Boolean(denied)}>
          <legend>Account roles (optional)</legend>
          {ROLES.map(([id, label]) => (
            <label key={id}>
              <input
                type="checkbox"
                checked={roles.includes(id)}
                onChange={(e) => setRoles(e.currentTarget.checked ? [...roles, id] : roles.filter((r) => r !== id))}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        <Action label="Invite" type="submit" kind="primary" denied={denied} busy={busy} />
      </form>
      <ErrorBox error={error ?? account.error ?? users.error} />
      {users.loading && !users.data ? <Loading what="users" /> : null}
      {users.data?.length === 0 ? <Empty>No user yet.</Empty> : null}
      {users.data?.length ? (
        <table>
          <Head cols={['E-mail', 'Name', 'Account roles', 'Invited', 'Actions']} />
          <tbody>
            {users.data.map((u) => (
              <UserRow key={u.id} user={u} accountUrl={String(base)} denied={denied} onChange={users.reload} />
            ))}
          </tbody>
        </table>
      ) : null}
    </AccountPage>
  );
}
