// An account's roles: the base roles and custom ones (create with a combination of the
// spec's legacy permissions, each of which stands for whole rows of the allowed
// combinations, so any choice is valid; edit a custom role in the same form (PUT overwrites:
// its name, description and colour are sent back); delete a custom role). account:roles:write.
import { useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { apiPath } from '../paths.ts';
import type { Account, Role } from '../types.ts';
import { AccountPage, Action, ErrorBox, Head, useAction, useLoad, LoadState } from '../ui.tsx';


/** The spec's legacy permissions, as a person reads them (docs/permissions.md, the legacy ↔ new table). */
export const LEGACY: readonly [string, string][] = [
  ['view3d', 'View scans in 3D'],
  ['upload', 'Upload scans'],
  ['download', 'Download and export scans'],
  ['upload_doc', 'Documents'],
  ['workzone', 'Manage work zones'],
  ['manage_users', 'Manage members'],
  ['view_asset', 'See tags'],
  ['create_asset', 'Edit tags'],
  ['view_annotation', 'See annotations'],
  ['annotate', 'Annotate'],
  ['measure', 'Measure'],
  ['share', 'Share links'],
  ['view_savedview', 'See saved views'],
  ['manage_savedview', 'Manage saved views'],
  ['create_project', 'Edit and delete the project'],
];

/** The spec's base roles (every account has them; they cannot be deleted). */
const BASE_ROLES = new Set(['Manager', 'Contributor', 'Viewer']);

/** account:roles:write and account:groups:write: owners, administrators and project managers. */
export const managesAccount = (a: Account | undefined): string | null =>
  !a ? 'Checking your permissions…' : a.permissions.isOwner || a.permissions.isAdmin || a.permissions.isManager ? null : 'Needs account:roles:write';

export function RolesScreen(props: { accountId: string }) {
  const base = apiPath`/api/2/accounts/${props.accountId}`;
  const account = useLoad(() => api<Account>('GET', base), String(base));
  const roles = useLoad(() => api<Role[]>('GET', `${base}/roles`), `${base} roles`);
  const [name, setName] = useState('');
  const [legacy, setLegacy] = useState<string[]>([]);
  const [run, busy, error] = useAction();
  const [editing, setEditing] = useState<Role | null>(null);
  const denied = managesAccount(account.data);
  const reset = () => {
    setEditing(null);
    setName('');
    setLegacy([]);
  };
  const save = async (e: Event) => {
    e.preventDefault();
    if (!name.trim() || !legacy.length) return;
    const saved = editing
      ? run(() =>
          api('PUT', apiPath`${base}/roles/${uuidOf(editing.id)}`, {
            name: name.trim(), description: editing.description, ...(editing.color ? { color: editing.color } : {}), legacyPermissions: legacy,
          }),
        )
      : run(() => api('POST', `${base}/roles`, { name: name.trim(), legacyPermissions: legacy }));
    if (await saved) {
      reset();
      roles.reload();
    }
  };
  return (
    <AccountPage accountId={props.accountId} title="Roles">
      <form onSubmit={save} aria-label={editing ? `Edit the role ${editing.name}` : 'New custom role'}>
        <div class="row">
          <label for="role-name">{editing ? 'Role name' : 'New role name'}</label>
          <input id="role-name" value={name} maxLength={255} disabled={Boolean(denied)} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <fieldset class="roles" disabled={Boolean(denied)}>
          <legend>What the role allows</legend>
          {LEGACY.map(([id, label]) => (
            <label key={id}>
              <input type="checkbox" checked={legacy.includes(id)} onChange={(e) => setLegacy(e.currentTarget.checked ? [...legacy, id] : legacy.filter((x) => x !== id))} /> {label}
            </label>
          ))}
        </fieldset>
        <Action label={editing ? 'Save role' : 'Create role'} type="submit" kind="primary" denied={denied ?? (legacy.length ? null : 'Choose at least one permission')} busy={busy} />
        {editing ? <Action label="Cancel" onClick={reset} /> : null}
      </form>
      <ErrorBox error={error} />
      <LoadState of={[roles]} what="roles" />
      {roles.data ? (
        <table>
          <Head cols={['Role', 'Permissions', 'Actions']} />
          <tbody>
            {roles.data.map((r) => (
              <tr key={r.id}>
                <td>{r.name}</td>
                <td>{r.permissions.join(', ')}</td>
                <td>
                  {BASE_ROLES.has(r.name) ? (
                    <span class="muted">base role</span>
                  ) : (
                    <>
                      <Action
                        label={`Edit role ${r.name}`}
                        denied={denied}
                        busy={busy}
                        onClick={() => {
                          setEditing(r);
                          setName(r.name);
                          setLegacy(r.legacyPermissions);
                          document.getElementById('role-name')?.focus();
                        }}
                      />
                      <Action
                        label={`Delete role ${r.name}`}
                        kind="danger"
                        denied={denied}
                        busy={busy}
                        onClick={() => confirm(`Delete the role ${r.name}?`) && void run(() => api('DELETE', apiPath`${base}/roles/${uuidOf(r.id)}`)).then((ok) => ok && roles.reload())}
                      />
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </AccountPage>
  );
}
