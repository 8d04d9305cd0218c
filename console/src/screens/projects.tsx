// Accounts (with their subscriptions' capacities, used against allowed) and an account's
// projects as cards (cover, counts, last activity): search, create, rename, delete and restore.
import { useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { apiPath } from '../paths.ts';
import { Fragment } from 'preact';
import type { Account, Project, Subscription, SubscriptionUsage } from '../types.ts';
import { formatAgo, formatFullDate, formatSize } from '../format.ts';
import { useInvitationsVersion } from '../me.ts';
import { MyInvitations } from './me.tsx';
import { administers } from './sso.tsx';
import { Action, Breadcrumbs, Empty, RenameDialog, ErrorBox, Icon, IconButton, Link, LoadState, toast, useAction, useConfirm, useLoad } from '../ui.tsx';

export function AccountsScreen() {
  // An accepted invitation adds an account: the list is read again.
  const version = useInvitationsVersion();
  const accounts = useLoad(() => api<Account[]>('GET', '/api/2/accounts'), `accounts ${version}`);
  return (
    <main id="main" class="page">
      <Breadcrumbs trail={[]} />
      <h1>Accounts</h1>
      <MyInvitations quiet />
      <LoadState of={[accounts]} what="accounts" />
      {accounts.data?.length === 0 ? <Empty icon="users">You belong to no account yet: accept an invitation, or ask an account administrator to invite you.</Empty> : null}
      <ul class="cards">
        {accounts.data?.map((a) => (
          <li key={a.id} class="card">
            <h2>
              <Link href={`/console/a/${uuidOf(a.id)}`}>{a.name}</Link>
            </h2>
            <p class="muted">{roleOf(a)}</p>
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
  const url = apiPath`/api/2/accounts/${props.accountId}/subscriptions/${uuidOf(s.id)}/usage`;
  const usage = useLoad(() => api<SubscriptionUsage>('GET', url), String(url));
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
      <LoadState of={[usage]} what="usage" />
      {u ? (
        <dl class="fields">
          {rows.map(([id, label, v, show]) => (
            <Fragment key={id}>
              <dt id={`${s.id}-${id}`}>{label}</dt>
              <dd class="nowrap">
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
  a.permissions.isOwner ? 'Owner' : a.permissions.isAdmin ? 'Administrator' : a.permissions.isManager ? 'Project manager' : 'Member';

/** Only project managers hold account:projects:create (docs/permissions.md, the account-level table). */
const mayCreateProjects = (a: Account) => a.permissions.isManager;

export function ProjectsScreen(props: { accountId: string }) {
  const base = apiPath`/api/2/accounts/${props.accountId}`;
  const account = useLoad(() => api<Account>('GET', base), `account ${props.accountId}`);
  const projects = useLoad(() => api<Project[]>('GET', apiPath`${base}/projects`), `projects ${props.accountId}`);
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
    if (await run(() => api('POST', apiPath`${base}/projects`, { name: name.trim(), subscriptionId: activeSub.id }))) {
      toast(`Project ${name.trim()} created`);
      setName('');
      projects.reload();
    }
  };
  const q = search.trim().toLowerCase();
  const shown = (projects.data ?? []).filter((p) => !q || p.name.toLowerCase().includes(q));
  return (
    <main id="main" class="page">
      <Breadcrumbs accountId={props.accountId} trail={[{ label: 'Projects' }]} />
      <div class="page-head">
        <h1>Projects</h1>
        <nav aria-label="Account" class="account-nav">
          <Link href={`/console/a/${props.accountId}/users`}>
            <Icon name="users" /> Users of the account
          </Link>
          <Link href={`/console/a/${props.accountId}/groups`}>Groups</Link>
          <Link href={`/console/a/${props.accountId}/roles`}>Roles</Link>
          <Link href={`/console/a/${props.accountId}/reports`}>Reports</Link>
          {administers(account.data) ? <Link href={`/console/a/${props.accountId}/sso`}>Single sign-on</Link> : null}
          <Link href={`/console/a/${props.accountId}/integrations`}>Integrations</Link>
        </nav>
      </div>
      <div class="toolbar">
        <form class="row compact" onSubmit={create}>
          <label for="new-project" class="visually-hidden">
            New project name
          </label>
          <input id="new-project" placeholder="New project name" value={name} maxLength={255} onInput={(e) => setName(e.currentTarget.value)} disabled={Boolean(createDenied)} />
          <Action label="Create project" icon="add" type="submit" kind="primary" denied={createDenied} busy={busy} />
        </form>
        <div class="row compact">
          <label for="project-search" class="visually-hidden">
            Search projects
          </label>
          <input id="project-search" type="search" placeholder="Search projects" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        </div>
      </div>
      <ErrorBox error={error} />
      <LoadState of={[account, projects]} what="projects" />
      {projects.data && shown.length === 0 ? <Empty icon="folder">{q ? 'No project matches the search.' : 'No project yet.'}</Empty> : null}
      <ul class="cards projects" aria-label="Projects">
        {shown.map((p) => (
          <ProjectCard key={p.id} accountId={props.accountId} project={p} onChange={projects.reload} />
        ))}
      </ul>
    </main>
  );
}

/** A project's cover through a signed URL (covers are read like files: POST …/blobs). */
function Cover(props: { url: string; blob: string | undefined }) {
  const image = useLoad(
    () => (props.blob ? api<{ urls: Record<string, string> }>('POST', `${props.url}/blobs`, [props.blob]).then((r) => r.urls[props.blob!] ?? null) : Promise.resolve(null)),
    `${props.url} cover ${props.blob ?? ''}`,
  );
  return image.data ? <img class="cover" src={image.data} alt="" /> : <div class="cover placeholder" aria-hidden="true"><Icon name="layers" size={32} /></div>;
}

function ProjectCard(props: { accountId: string; project: Project; onChange: () => void }) {
  const p = props.project;
  const url = String(apiPath`/api/2/accounts/${props.accountId}/projects/${uuidOf(p.id)}`);
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(p.name);
  const [run, busy, error] = useAction();
  const [ask, confirmDialog] = useConfirm();
  const has = (perm: string) => p.permissions.includes(perm);
  const renameDenied = !has('project:project:update-details');
  const deleteDenied = !has('project:project:delete');
  const deleted = p.modificationInfo.isDeleted;
  const act = async (f: () => Promise<unknown>) => {
    if (await run(f)) props.onChange();
  };
  const stats = p.statsInfo;
  const updated = p.modificationInfo.updatedAt;
  return (
    <li class={deleted ? 'card project-card deleted' : 'card project-card'}>
      <Cover url={url} blob={deleted ? undefined : p.coverBlobName} />
      <div class="card-body">
        <h2>
          {deleted ? (
            <span>
              {p.name} <span class="muted">(deleted)</span>
            </span>
          ) : (
            <Link href={`/console/a/${props.accountId}/p/${uuidOf(p.id)}`}>{p.name}</Link>
          )}
        </h2>
        <p class="counts nowrap">
          {stats.scanCount ?? 0} scans · {stats.tagCount ?? 0} tags · {stats.workzoneCount ?? 1} zones
        </p>
        <p class="muted nowrap" title={formatFullDate(updated)}>
          Last activity {formatAgo(updated)}
        </p>
      </div>
      <div class="card-actions">
        {deleted ? (
          <Action label={`Restore ${p.name}`} denied={deleteDenied ? 'Needs project:project:delete' : null} busy={busy} onClick={() => void act(() => api('PUT', `${url}/restore`))} />
        ) : (
          <>
            <IconButton icon="rename" label={`Rename ${p.name}`} denied={renameDenied ? 'Needs project:project:update-details' : null} onClick={() => setRenaming(true)} />
            <IconButton
              icon="remove"
              label={`Delete ${p.name}`}
              danger
              denied={deleteDenied ? 'Needs project:project:delete' : null}
              disabled={busy}
              onClick={() =>
                void ask({ title: 'Delete the project?', body: `${p.name} will be deleted; it can be restored from this list.`, action: 'Delete project' }).then(
                  (ok) => {
                    if (ok) void act(() => api('DELETE', url));
                  },
                )
              }
            />
          </>
        )}
      </div>
      <ErrorBox error={error} />
      <RenameDialog
        open={renaming}
        title={`Rename ${p.name}`}
        label="New name"
        id={`rename-${p.id}`}
        value={name}
        onInput={setName}
        onSave={(next) => void act(() => api('PATCH', url, { name: next })).then(() => setRenaming(false))}
        onClose={() => setRenaming(false)}
        busy={busy}
        save="Save"
      />
      {confirmDialog}
    </li>
  );
}
