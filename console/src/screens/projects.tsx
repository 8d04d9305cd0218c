// Accounts (with their subscriptions' capacities, used against allowed) and an account's projects: list with
// search, create, rename, delete and restore.
import { useState } from 'preact/hooks';
import { A2, api, uuidOf } from '../api.ts';
import { Fragment } from 'preact';
import type { Account, Project, Subscription, SubscriptionUsage } from '../types.ts';
import { formatSize } from '../format.ts';
import { Action, Empty, ErrorBox, Link, Loading, useAction, useLoad } from '../ui.tsx';

export function AccountsScreen() {
  const accounts = useLoad(() => api<Account[]>('GET', `${A2}/accounts`), 'accounts');
  return (
    <main id="main">
      <h1>Accounts</h1>
      <ErrorBox error={accounts.error} />
      {accounts.loading && !accounts.data ? <Loading what="accounts" /> : null}
      {accounts.data?.length === 0 ? <Empty>You belong to no account yet: ask an account administrator to invite you.</Empty> : null}
      <ul class="cards">
        {accounts.data?.map((a) => (
          <li key={a.id}>
            <Link href={`/console/a/${uuidOf(a.id)}`}>{a.name}</Link>
            <span class="muted"> {roleOf(a)}</span>
            <ul class="subscriptions">
              {a.subscriptions.map((s) => (
                <li key={s.id}>
                  <SubscriptionUsageMeters accountId={uuidOf(a.id)} subscription={s} />
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </main>
  );
}


/** A subscription's capacities, used against allowed (GET …/usage, which counts as the service's checks do). */
function SubscriptionUsageMeters(props: { accountId: string; subscription: Subscription }) {
  const s = props.subscription;
  const url = `${A2}/accounts/${props.accountId}/subscriptions/${uuidOf(s.id)}/usage`;
  const usage = useLoad(() => api<SubscriptionUsage>('GET', url), url);
  const title = `${s.name ?? 'Subscription'}${s.isActive ? '' : ' (inactive)'}`;
  const u = usage.data;
  const rows: [string, string, { used: number; allowed: number }, (n: number) => string][] = u
    ? [
        ['scans', 'Scans', u.scans, String],
        ['geo-images', 'Geo images', u.geoImages, String],
        ['tags', 'Tags', u.tags, (n) => n.toLocaleString('en')],
        ['storage', 'Storage', u.storageBytes, formatSize],
      ]
    : [];
  return (
    <div class="usage" aria-label={`Usage of ${title}`} role="group">
      <strong>{title}</strong>
      {usage.loading && !u ? <Loading what="usage" /> : null}
      <ErrorBox error={usage.error} />
      {u ? (
        <dl class="fields">
          {rows.map(([id, label, v, show]) => (
            <Fragment key={id}>
              <dt id={`${s.id}-${id}`}>{label}</dt>
              <dd>
                <meter min={0} max={Math.max(v.allowed, 1)} value={v.used} aria-labelledby={`${s.id}-${id}`} /> {show(v.used)} of {show(v.allowed)} used
              </dd>
            </Fragment>
          ))}
        </dl>
      ) : null}
    </div>
  );
}

const roleOf = (a: Account): string =>
  a.permissions.isOwner ? 'owner' : a.permissions.isAdmin ? 'administrator' : a.permissions.isManager ? 'project manager' : 'member';

/** Only project managers hold account:projects:create (docs/permissions.md, the account-level table). */
const mayCreateProjects = (a: Account) => a.permissions.isManager;

export function ProjectsScreen(props: { accountId: string }) {
  const base = `${A2}/accounts/${props.accountId}`;
  const account = useLoad(() => api<Account>('GET', base), `account ${props.accountId}`);
  const projects = useLoad(() => api<Project[]>('GET', `${base}/projects`), `projects ${props.accountId}`);
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const [run, busy, error] = useAction();
  const activeSub = account.data?.subscriptions.find((s) => s.isActive);
  const createDenied = !account.data
    ? 'Loading the account…'
    : !mayCreateProjects(account.data)
      ? 'Needs account:projects:create (project managers)'
      : !activeSub
        ? 'The account has no active subscription'
        : null;

  const create = async (e: Event) => {
    e.preventDefault();
    if (!activeSub || !name.trim()) return;
    if (await run(() => api('POST', `${base}/projects`, { name: name.trim(), subscriptionId: activeSub.id }))) {
      setName('');
      projects.reload();
    }
  };
  const q = search.trim().toLowerCase();
  const shown = (projects.data ?? []).filter((p) => !q || p.name.toLowerCase().includes(q));
  return (
    <main id="main">
      <nav aria-label="Breadcrumb" class="crumbs">
        <Link href="/console/">Accounts</Link> / <span aria-current="page">{account.data?.name ?? '…'}</span>
      </nav>
      <h1>Projects</h1>
      <p>
        <Link href={`/console/a/${props.accountId}/users`}>Users of the account</Link> ·{' '}
        <Link href={`/console/a/${props.accountId}/groups`}>Groups</Link> ·{' '}
        <Link href={`/console/a/${props.accountId}/roles`}>Roles</Link> ·{' '}
        <Link href={`/console/a/${props.accountId}/reports`}>Reports</Link>
      </p>
      <ErrorBox error={account.error ?? projects.error} />
      <form class="row" onSubmit={create}>
        <label for="new-project">New project name</label>
        <input id="new-project" value={name} maxLength={255} onInput={(e) => setName(e.currentTarget.value)} disabled={Boolean(createDenied)} />
        <Action label="Create project" type="submit" kind="primary" denied={createDenied} busy={busy} />
      </form>
      <ErrorBox error={error} />
      <div class="row">
        <label for="project-search">Search projects</label>
        <input id="project-search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </div>
      {projects.loading && !projects.data ? <Loading what="projects" /> : null}
      {projects.data && shown.length === 0 ? <Empty>{q ? 'No project matches the search.' : 'No project yet.'}</Empty> : null}
      <ul class="list" aria-label="Projects">
        {shown.map((p) => (
          <ProjectRow key={p.id} accountId={props.accountId} project={p} onChange={projects.reload} />
        ))}
      </ul>
    </main>
  );
}

function ProjectRow(props: { accountId: string; project: Project; onChange: () => void }) {
  const p = props.project;
  const url = `${A2}/accounts/${props.accountId}/projects/${uuidOf(p.id)}`;
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(p.name);
  const [run, busy, error] = useAction();
  const has = (perm: string) => p.permissions.includes(perm);
  const renameDenied = has('project:project:update-details') ? null : 'Needs project:project:update-details';
  const deleteDenied = has('project:project:delete') ? null : 'Needs project:project:delete';
  const deleted = p.modificationInfo.isDeleted;
  const act = async (f: () => Promise<unknown>) => {
    if (await run(f)) props.onChange();
  };
  return (
    <li class={deleted ? 'deleted' : undefined}>
      {renaming ? (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void act(() => api('PATCH', url, { name: name.trim() })).then(() => setRenaming(false));
          }}
        >
          <label for={`rename-${p.id}`}>New name</label>
          <input id={`rename-${p.id}`} value={name} maxLength={255} onInput={(e) => setName(e.currentTarget.value)} />
          <Action label="Save" type="submit" kind="primary" busy={busy} />
          <Action label="Cancel" onClick={() => setRenaming(false)} />
        </form>
      ) : deleted ? (
        <span>
          {p.name} <span class="muted">(deleted)</span>
        </span>
      ) : (
        <Link href={`/console/a/${props.accountId}/p/${uuidOf(p.id)}`}>{p.name}</Link>
      )}
      <span class="actions">
        {deleted ? (
          <Action label={`Restore ${p.name}`} denied={deleteDenied} busy={busy} onClick={() => void act(() => api('PUT', `${url}/restore`))} />
        ) : (
          <>
            {renaming ? null : <Action label={`Rename ${p.name}`} denied={renameDenied} onClick={() => setRenaming(true)} />}
            <Action label={`Delete ${p.name}`} kind="danger" denied={deleteDenied} busy={busy} onClick={() => void act(() => api('DELETE', url))} />
          </>
        )}
      </span>
      <ErrorBox error={error} />
    </li>
  );
}
