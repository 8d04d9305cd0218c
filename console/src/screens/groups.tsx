// An account's groups: create, delete, add and remove users (account:groups:write).
import { useState } from 'preact/hooks';
import { api, ApiError, uuidOf } from '../api.ts';
import { apiPath } from '../paths.ts';
import type { Account, Group, User } from '../types.ts';
import { AccountPage, Action, Empty, ErrorBox, useAction, useLoad, LoadState } from '../ui.tsx';
import { managesAccount } from './roles.tsx';


export function GroupsScreen(props: { accountId: string }) {
  const base = apiPath`/api/2/accounts/${props.accountId}`;
  const account = useLoad(() => api<Account>('GET', base), String(base));
  const groups = useLoad(() => api<Group[]>('GET', `${base}/groups`), `${base} groups`);
  // The users' e-mails only label the members: a caller who may not list the account's
  // users (403) sees the members' ids instead; any other failure is shown.
  const users = useLoad(
    () =>
      api<User[]>('GET', `${base}/users`).catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 403) return [] as User[];
        throw e;
      }),
    `${base} users`,
  );
  const [name, setName] = useState('');
  const [run, busy, error] = useAction();
  const denied = managesAccount(account.data)?.replace('account:roles:write', 'account:groups:write') ?? null;
  const emailOf = (id: string) => users.data?.find((u) => uuidOf(u.id) === uuidOf(id))?.email ?? uuidOf(id);
  const act = (f: () => Promise<unknown>) => run(f).then((ok) => ok && groups.reload());

  return (
    <AccountPage accountId={props.accountId} title="Groups">
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) void act(() => api('POST', `${base}/groups`, { name: name.trim() })).then(() => setName(''));
        }}
      >
        <label for="group-name">New group name</label>
        <input id="group-name" value={name} maxLength={36} disabled={Boolean(denied)} onInput={(e) => setName(e.currentTarget.value)} />
        <Action label="Create group" type="submit" kind="primary" denied={denied} busy={busy} />
      </form>
      <ErrorBox error={error} />
      <LoadState of={[groups, users]} what="groups" />
      {groups.data?.length === 0 ? <Empty>No group yet.</Empty> : null}
      <ul class="cards" aria-label="Groups">
        {groups.data?.map((g) => {
          const g2 = String(apiPath`${base}/groups/${uuidOf(g.id)}`);
          const others = (users.data ?? []).filter((u) => !g.userIds.some((id) => uuidOf(id) === uuidOf(u.id)));
          return (
            <li key={g.id}>
              <h2>{g.name}</h2>
              <ul>
                {g.userIds.map((id) => (
                  <li key={id}>
                    {emailOf(id)}{' '}
                    <Action label={`Remove ${emailOf(id)} from ${g.name}`} denied={denied} busy={busy} onClick={() => void act(() => api('DELETE', `${g2}/members`, [uuidOf(id)]))} />
                  </li>
                ))}
              </ul>
              <div class="row">
                <label for={`add-${uuidOf(g.id)}`}>Add a user to {g.name}</label>
                <select
                  id={`add-${uuidOf(g.id)}`}
                  disabled={Boolean(denied) || !others.length}
                  onChange={(e) => {
                    const id = e.currentTarget.value;
                    if (id) void act(() => api('POST', `${g2}/members`, [id]));
                  }}
                >
                  <option value="">Choose…</option>
                  {others.map((u) => (
                    <option key={u.id} value={uuidOf(u.id)}>
                      {u.email}
                    </option>
                  ))}
                </select>
                <Action label={`Delete group ${g.name}`} kind="danger" denied={denied} busy={busy} onClick={() => confirm(`Delete the group ${g.name}?`) && void act(() => api('DELETE', g2))} />
              </div>
            </li>
          );
        })}
      </ul>
    </AccountPage>
  );
}
