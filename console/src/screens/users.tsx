// An account's users: the list with their account roles, and invitations (an e-mail with
// a link to set a password; optional account roles), for owners, administrators and
// project managers (account:users:write). A user invited who has not accepted yet is
// listed as pending (API 2's `pending: true`: only the address the inviter wrote); the
// pending view lists only those, and an invitation is withdrawn with DELETE …/members.
// Removing and withdrawing are confirmed in a dialog. The API has no "send again": an invitation is mailed once (docs/security.md "Invitations").
import { useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { ACCOUNT_ROLE_NAMES, accountRoleNames, formatDate, formatFullDate } from '../format.ts';
import { apiPath } from '../paths.ts';
import type { Account, User } from '../types.ts';
import { AccountPage, Action, Empty, ErrorBox, Head, IconButton, toast, useAction, useConfirm, useLoad, LoadState } from '../ui.tsx';

const ROLES = Object.entries(ACCOUNT_ROLE_NAMES) as [keyof typeof ACCOUNT_ROLE_NAMES, string][];

/**
 * A user's row; the account roles are edited in place (PUT …/members/{user}/roles); the
 * user is removed from the account with DELETE …/members (the service refuses the account
 * owner and project owners, with its reason).
 */
function UserRow(props: { user: User; accountUrl: string; denied: string | null; onChange: () => void; inviter: string | null; ask: ReturnType<typeof useConfirm>[0] }) {
  const u = props.user;
  const [editing, setEditing] = useState<string[] | null>(null);
  const [run, busy, error] = useAction();
  const label = `${u.firstName} ${u.lastName}`.trim() || u.email;
  const withdraw = async () => {
    const ok = await props.ask({
      title: 'Withdraw the invitation?',
      body: `${u.email} will not join the account, and the link mailed to them stops working. You can invite them again later.`,
      action: 'Withdraw invitation',
    });
    if (ok && (await run(() => api('DELETE', `${props.accountUrl}/members`, [u.id])))) {
      toast(`Invitation to ${u.email} withdrawn`);
      props.onChange();
    }
  };
  const remove = async () => {
    const ok = await props.ask({
      title: 'Remove the user?',
      body: `${u.email} leaves the account and loses access to its projects.`,
      action: 'Remove from the account',
    });
    if (ok && (await run(() => api('DELETE', `${props.accountUrl}/members`, [u.id])))) {
      toast(`${u.email} removed`);
      props.onChange();
    }
  };
  return (
    <tr class={u.pending ? 'pending' : undefined}>
      <td>{u.email}</td>
      <td>
        {u.pending ? (
          <span class="badge pending" title="Invited, has not accepted yet: the account sees only the address it wrote">
            Pending
          </span>
        ) : (
          `${u.firstName} ${u.lastName}`.trim() || '—'
        )}
      </td>
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
            {accountRoleNames(u.accountRoles) || 'member'}{' '}
            {props.denied ? null : <IconButton icon="rename" label={`Change roles of ${label}`} onClick={() => setEditing(u.accountRoles ?? [])} />}
          </>
        )}
        <ErrorBox error={error} />
      </td>
      <td class="nowrap">
        {u.invitedAt ? (
          <time dateTime={u.invitedAt} title={formatFullDate(u.invitedAt)}>
            {formatDate(u.invitedAt)}
          </time>
        ) : (
          '—'
        )}
        {props.inviter ? <span class="muted"> by {props.inviter}</span> : null}
      </td>
      <td>
        {props.denied ? null : u.pending ? (
          <IconButton icon="close" danger disabled={busy} label={`Withdraw invitation to ${u.email}`} onClick={() => void withdraw()} />
        ) : (
          <IconButton icon="remove" danger disabled={busy} label={`Remove ${u.email}`} onClick={() => void remove()} />
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
  const [onlyPending, setOnlyPending] = useState(false);
  const [ask, confirmDialog] = useConfirm();
  const denied = !account.data ? 'Checking your permissions…' : managesUsers(account.data) ? null : 'Needs account:users:write';

  const pending = (users.data ?? []).filter((u) => u.pending);
  /** Inviters named by their address, when they are users of the account. */
  const emails = new Map((users.data ?? []).filter((u) => !u.pending).map((u) => [uuidOf(u.id), u.email]));

  const invite = async (e: Event) => {
    e.preventDefault();
    if (!email.trim()) return;
    let answer: User[] = [];
    if (await run(async () => (answer = await api<User[]>('POST', `${base}/users/bulk-invite`, [{ email: email.trim(), roles }])))) {
      toast(answer[0]?.pending ? `${email.trim()} is invited: they join when they accept` : `${email.trim()} is a member`);
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
      <ErrorBox error={error} />
      <LoadState of={[account, users]} what="users" />
      {users.data?.length === 0 ? <Empty>No user yet.</Empty> : null}
      {users.data?.length ? (
        <>
          <div class="toolbar view-switch" role="group" aria-label="Which users">
            <button type="button" class="secondary small" aria-pressed={!onlyPending} onClick={() => setOnlyPending(false)}>
              All users ({users.data.length})
            </button>
            <button type="button" class="secondary small" aria-pressed={onlyPending} onClick={() => setOnlyPending(true)}>
              Pending invitations ({pending.length})
            </button>
          </div>
          {onlyPending ? (
            <p class="muted">
              Invited, not accepted yet: they join when they accept (after signing in, or by setting their first password from the mailed link). An invitation is
              mailed once; to send a new mail, withdraw it and invite again.
            </p>
          ) : null}
          {onlyPending && !pending.length ? (
            <Empty icon="mail">No invitation is waiting for an answer.</Empty>
          ) : (
            <table>
              <Head cols={['E-mail', 'Name', 'Account roles', 'Invited', 'Actions']} />
              <tbody>
                {(onlyPending ? pending : users.data).map((u) => (
                  <UserRow
                    key={u.id}
                    user={u}
                    accountUrl={String(base)}
                    denied={denied}
                    onChange={users.reload}
                    inviter={u.invitedBy ? (emails.get(uuidOf(u.invitedBy)) ?? null) : null}
                    ask={ask}
                  />
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : null}
      {confirmDialog}
    </AccountPage>
  );
}
