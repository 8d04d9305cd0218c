// A project: its work-zone tree (create, rename, delete) and, for the chosen zone, its
// files (upload by drag and drop, rename, download, delete), its members (add with a role
// and an expiry, remove; effective access from members/access) and its tag lists.
import { Fragment } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { A2, api, uuidOf } from '../api.ts';
import type { FileItem, Group, MemberAccess, Project, Role, TagList, Workzone } from '../types.ts';
import { navigate } from '../router.ts';
import { zonePermissions } from '../permissions.ts';
import { Action, Empty, ErrorBox, Head, Link, Loading, deniedUnless, useAction, useLoad } from '../ui.tsx';
import { uploadFiles, type UploadProgress } from '../upload.ts';
import { formatSize } from '../format.ts';
import { ConnectPanel } from './connect.tsx';
import { UploadList } from './upload-list.tsx';
import { TransformForm, transformDenied } from './file-transform.tsx';
import { CopyPanel } from './zone-copy.tsx';
import { CropsPanel } from './crops.tsx';
import { ProjectCover } from './project-cover.tsx';

interface Ctx {
  accountId: string;
  project: Project;
  base: string;
  /** The caller's permissions in the chosen zone (undefined while they load). */
  perms: ReadonlySet<string> | undefined;
}

/** One id in its URN or bare UUID form. */
const same = (a: string | null | undefined, b: string | null | undefined) => Boolean(a && b && uuidOf(a) === uuidOf(b));

const TABS = [
  ['files', 'Files'],
  ['members', 'Members'],
  ['tags', 'Tag lists'],
  ['crops', 'Crops'],
  ['connect', 'Connect'],
  ['copy', 'Copy'],
] as const;

export function ProjectScreen(props: { accountId: string; projectId: string; zoneId: string | null; tab: string }) {
  const base = `${A2}/accounts/${props.accountId}/projects/${props.projectId}`;
  const project = useLoad(() => api<Project>('GET', base), base);
  const zones = useLoad(() => api<Workzone[]>('GET', `${base}/workzones`), `${base} zones`);
  const here = `/console/a/${props.accountId}/p/${props.projectId}`;
  const zoneRef = props.zoneId ?? project.data?.rootWorkzoneId ?? null;
  const zoneId = zoneRef ? uuidOf(zoneRef) : null;
  const zone = zones.data?.find((z) => same(z.id, zoneId));
  const perms = useLoad(
    () => (project.data && zoneId ? zonePermissions(base, zoneId) : Promise.resolve(new Set<string>())),
    `${base} ${zoneId} ${project.data ? 'loaded' : ''}`,
  );
  const go = (q: { zone?: string; tab?: string }) =>
    navigate(`${here}?${new URLSearchParams({ zone: uuidOf(q.zone ?? zoneId ?? ''), tab: q.tab ?? props.tab })}`);

  const crumbs = (
    <nav aria-label="Breadcrumb" class="crumbs">
      <Link href="/console/">Accounts</Link> / <Link href={`/console/a/${props.accountId}`}>Projects</Link> /{' '}
      <span aria-current="page">{project.data?.name ?? '…'}</span>
    </nav>
  );
  if (project.error || (!project.data && project.loading)) {
    return (
      <main id="main">
        {crumbs}
        <h1>Project</h1>
        <ErrorBox error={project.error} />
        {project.loading ? <Loading what="the project" /> : null}
      </main>
    );
  }
  const ctx: Ctx = { accountId: props.accountId, project: project.data!, base, perms: perms.loading ? undefined : perms.data };
  return (
    <main id="main" class="project">
      {crumbs}
      <h1>{project.data!.name}</h1>
      <ProjectCover base={base} project={project.data!} onChange={project.reload} />
      <div class="split">
        <section aria-labelledby="zones-h" class="zones">
          <h2 id="zones-h">Work zones</h2>
          <ErrorBox error={zones.error} />
          {zones.loading && !zones.data ? <Loading what="work zones" /> : null}
          {zones.data ? <ZoneTree ctx={ctx} zones={zones.data} selected={zoneId} onSelect={(id) => go({ zone: uuidOf(id) })} onChange={zones.reload} /> : null}
        </section>
        <section aria-labelledby="zone-h" class="zone">
          <h2 id="zone-h">{zone ? zone.name : 'Work zone'}</h2>
          <ErrorBox error={perms.error} />
          <div role="tablist" aria-label="Zone views" class="tabs">
            {TABS.map(([id, label]) => (
              <button
                key={id}
                type="button"
                role="tab"
                id={`tab-${id}`}
                aria-selected={props.tab === id}
                aria-controls={`panel-${id}`}
                tabIndex={props.tab === id ? 0 : -1}
                onClick={() => go({ tab: id })}
                onKeyDown={(e) => {
                  const i = TABS.findIndex(([t]) => t === props.tab);
                  const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
                  if (d) go({ tab: TABS[(i + d + TABS.length) % TABS.length]![0] });
                }}
              >
                {label}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`panel-${props.tab}`} aria-labelledby={`tab-${props.tab}`}>
            {zoneId ? (
              props.tab === 'members' ? (
                <MembersPanel ctx={ctx} zoneId={zoneId} zones={zones.data ?? []} />
              ) : props.tab === 'tags' ? (
                <TagListsPanel ctx={ctx} zoneId={zoneId} />
              ) : props.tab === 'crops' ? (
                <CropsPanel base={base} zoneId={zoneId} perms={ctx.perms} />
              ) : props.tab === 'copy' ? (
                zone ? (
                  <CopyPanel accountId={props.accountId} project={project.data!} base={base} zone={zone} zones={zones.data ?? []} perms={ctx.perms} onCopied={zones.reload} />
                ) : null
              ) : props.tab === 'connect' ? (
                <ConnectPanel accountId={props.accountId} projectId={props.projectId} zoneId={zoneId} perms={ctx.perms} />
              ) : (
                <FilesPanel ctx={ctx} zoneId={zoneId} />
              )
            ) : null}
          </div>
        </section>
      </div>
    </main>
  );
}

function ZoneTree(props: { ctx: Ctx; zones: Workzone[]; selected: string | null; onSelect: (id: string) => void; onChange: () => void }) {
  const { ctx, zones } = props;
  const [name, setName] = useState('');
  const [run, busy, error] = useAction();
  const writeDenied = deniedUnless(ctx.perms, 'workzone:workzones:write');
  const children = (parent: string | null) => zones.filter((z) => (parent === null ? z.parentId === null : same(z.parentId, parent)));
  const selected = zones.find((z) => same(z.id, props.selected));
  const isRoot = selected && selected.parentId === null;

  const node = (z: Workzone) => (
    <li key={z.id} role="treeitem" aria-selected={same(z.id, props.selected)} aria-expanded={children(z.id).length ? true : undefined}>
      <button type="button" class={same(z.id, props.selected) ? 'zone-name current' : 'zone-name'} onClick={() => props.onSelect(z.id)}>
        {z.name}
      </button>
      {children(z.id).length ? <ul role="group">{children(z.id).map(node)}</ul> : null}
    </li>
  );
  const create = async (e: Event) => {
    e.preventDefault();
    if (!selected || !name.trim()) return;
    if (await run(() => api('POST', `${ctx.base}/workzones`, { name: name.trim(), parentWorkzoneId: selected.id }))) {
      setName('');
      props.onChange();
    }
  };
  return (
    <>
      <ul role="tree" aria-label="Work zones" class="tree">
        {children(null).map(node)}
      </ul>
      <form class="row" onSubmit={create}>
        <label for="new-zone">New zone under {selected?.name ?? '…'}</label>
        <input id="new-zone" value={name} maxLength={255} disabled={Boolean(writeDenied)} onInput={(e) => setName(e.currentTarget.value)} />
        <Action label="Create zone" type="submit" kind="primary" denied={writeDenied} busy={busy} />
      </form>
      {selected ? (
        <div class="row">
          <Action
            label="Rename zone"
            denied={writeDenied}
            busy={busy}
            onClick={() => {
              const next = prompt('New name of the work zone', selected.name)?.trim();
              if (next) void run(() => api('PUT', `${ctx.base}/workzones/${uuidOf(selected.id)}`, { name: next })).then((ok) => ok && props.onChange());
            }}
          />
          <Action
            label="Delete zone"
            kind="danger"
            denied={isRoot ? 'The root zone is deleted with its project' : writeDenied}
            busy={busy}
            onClick={() => {
              if (confirm(`Delete the work zone ${selected.name} and everything in it?`)) {
                void run(() => api('DELETE', `${ctx.base}/workzones/${uuidOf(selected.id)}`)).then((ok) => {
                  if (ok) {
                    props.onSelect(uuidOf(ctx.project.rootWorkzoneId));
                    props.onChange();
                  }
                });
              }
            }}
          />
        </div>
      ) : null}
      <ErrorBox error={error} />
    </>
  );
}

/** Upload needs the write permission of the file's category; scans and documents are the common ones. */
const UPLOAD_PERMISSIONS = ['workzone:reality-data:write', 'workzone:documents:write'] as const;

function FilesPanel(props: { ctx: Ctx; zoneId: string }) {
  const { ctx, zoneId } = props;
  const files = useLoad(() => api<FileItem[]>('GET', `${ctx.base}/files`), `${ctx.base} files`);
  const [uploads, setUploads] = useState<UploadProgress[]>([]);
  const controllers = useRef<AbortController[]>([]);
  const [dragging, setDragging] = useState(false);
  const [run, busy, error] = useAction();
  const input = useRef<HTMLInputElement>(null);
  const uploadDenied = deniedUnless(ctx.perms, ...UPLOAD_PERMISSIONS);
  const [transforming, setTransforming] = useState<string | null>(null);

  const start = async (list: File[]) => {
    if (!list.length || uploadDenied) return;
    controllers.current = list.map(() => new AbortController());
    await uploadFiles(`${ctx.base}/workzones/${zoneId}/bulk-files`, list, setUploads, controllers.current);
    files.reload();
  };
  const inZone = (files.data ?? []).filter((f) => same(f.workzoneId, zoneId));
  const byCategory = new Map<string, FileItem[]>();
  for (const f of inZone) byCategory.set(f.type, [...(byCategory.get(f.type) ?? []), f]);

  const download = (f: FileItem) =>
    run(async () => {
      const { urls } = await api<{ urls: Record<string, string> }>('POST', `${ctx.base}/blobs`, [f.blobName]);
      const url = urls[f.blobName];
      if (url) window.open(url, '_blank', 'noopener');
    });
  return (
    <div>
      <div
        class={dragging ? 'drop dragging' : 'drop'}
        data-testid="drop-zone"
        aria-describedby={uploadDenied ? 'why-upload' : undefined}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          void start([...(e.dataTransfer?.files ?? [])]);
        }}
      >
        <p>Drop files here to upload them into this zone, or</p>
        <input ref={input} id="file-input" type="file" multiple class="visually-hidden" aria-label="Files to upload" tabIndex={-1} onChange={(e) => void start([...(e.currentTarget.files ?? [])])} />
        <Action label="Choose files" denied={uploadDenied} onClick={() => input.current?.click()} />
      </div>
      <UploadList uploads={uploads} controllers={controllers.current} />
      <ErrorBox error={files.error ?? error} />
      {files.loading && !files.data ? <Loading what="files" /> : null}
      {files.data && inZone.length === 0 ? <Empty>No file in this zone yet.</Empty> : null}
      {[...byCategory].map(([category, list]) => (
        <section key={category} aria-label={`Files: ${category}`}>
          <h3>{category}</h3>
          <table class="files">
            <Head cols={['Name', 'Size', 'Added', 'Actions']} />
            <tbody>
              {list.map((f) => (
                <Fragment key={f.id}>
                  <tr>
                    <td class="file-name">
                      {f.name}.{f.extension}
                    </td>
                    <td>{formatSize(f.size)}</td>
                    <td>{new Date(f.createdAt).toLocaleString()}</td>
                    <td>
                      <button type="button" class="plain" disabled={busy} onClick={() => void download(f)}>
                        Download {f.name}
                      </button>
                      {transformDenied(f, ctx.perms) === null && transforming !== f.id ? (
                        <button type="button" class="plain" disabled={busy} onClick={() => setTransforming(f.id)}>
                          Transform {f.name}
                        </button>
                      ) : null}
                      {uploadDenied ? null : (
                        <>
                      <button
                        type="button"
                        class="plain"
                        disabled={busy}
                        onClick={() => {
                          const next = prompt('New file name', f.name)?.trim();
                          if (next) void run(() => api('PATCH', `${ctx.base}/files/${uuidOf(f.id)}`, { name: next })).then((ok) => ok && files.reload());
                        }}
                      >
                        Rename {f.name}
                      </button>
                      <button
                        type="button"
                        class="danger"
                        disabled={busy}
                        onClick={() => confirm(`Delete ${f.name}?`) && void run(() => api('DELETE', `${ctx.base}/files/${uuidOf(f.id)}`)).then((ok) => ok && files.reload())}
                      >
                        Delete {f.name}
                      </button>
                        </>
                      )}
                    </td>
                  </tr>
                  {transforming === f.id ? (
                    <tr>
                      <td colSpan={4}>
                        <TransformForm
                          file={f}
                          base={ctx.base}
                          onCancel={() => setTransforming(null)}
                          onDone={() => {
                            setTransforming(null);
                            files.reload();
                          }}
                        />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}

function MembersPanel(props: { ctx: Ctx; zoneId: string; zones: Workzone[] }) {
  const { ctx, zoneId } = props;
  const access = useLoad(() => api<MemberAccess[]>('GET', `${ctx.base}/members/access`), `${ctx.base} access`);
  const roles = useLoad(() => api<Role[]>('GET', `${A2}/accounts/${ctx.accountId}/roles`), `${ctx.accountId} roles`);
  const [kind, setKind] = useState<'user' | 'group'>('user');
  const [email, setEmail] = useState('');
  const [groupId, setGroupId] = useState('');
  // The account's groups, read when the form turns to groups (needs account:groups:read).
  const groups = useLoad(
    () => (kind === 'group' ? api<Group[]>('GET', `${A2}/accounts/${ctx.accountId}/groups`) : Promise.resolve(undefined)),
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
    if (await run(() => api('POST', `${ctx.base}/members`, { members, workzones: isRoot ? null : [zoneId] }))) {
      setEmail('');
      setExpiry('');
      access.reload();
    }
  };
  const remove = (m: MemberAccess) =>
    run(() =>
      m.member.type === 'group'
        ? api('DELETE', `${ctx.base}/members/groups/${uuidOf(m.member.id)}`)
        : isRoot
          ? api('DELETE', `${ctx.base}/members/users/${uuidOf(m.member.id)}`)
          : api('DELETE', `${ctx.base}/workzones/${zoneId}/members/users/${uuidOf(m.member.id)}`),
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
      <ErrorBox error={error ?? access.error ?? roles.error ?? groups.error} />
      {access.loading && !access.data ? <Loading what="members" /> : null}
      {access.data && here.length === 0 ? <Empty>No member reaches this zone.</Empty> : null}
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

function TagListsPanel(props: { ctx: Ctx; zoneId: string }) {
  const { ctx, zoneId } = props;
  const lists = useLoad(() => api<TagList[]>('GET', `${ctx.base}/tag-lists`), `${ctx.base} tag lists`);
  const [name, setName] = useState('');
  const [run, busy, error] = useAction();
  const writeDenied = deniedUnless(ctx.perms, 'workzone:tags:write');
  const inZone = (lists.data ?? []).filter((l) => same(l.workzoneId, zoneId));
  const [renaming, setRenaming] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  // PUT overwrites every field of the list (docs/tags.md): send the others back as they are.
  const rename = async (e: Event, l: TagList) => {
    e.preventDefault();
    if (!newName.trim()) return;
    const body = {
      workzoneId: l.workzoneId, tagListType: l.tagListType, name: newName.trim(), description: l.description, color: l.color,
      metadataDefinition: l.metadataDefinition, attachments: l.attachments,
    };
    if (await run(() => api('PUT', `${ctx.base}/tag-lists/${uuidOf(l.id)}`, body))) {
      setRenaming(null);
      lists.reload();
    }
  };
  const create = async (e: Event) => {
    e.preventDefault();
    if (!name.trim()) return;
    if (await run(() => api('POST', `${ctx.base}/tag-lists`, { workzoneId: zoneId, tagListType: '3d', name: name.trim() }))) {
      setName('');
      lists.reload();
    }
  };
  return (
    <div>
      <form class="row" onSubmit={create}>
        <label for="new-tag-list">New tag list name</label>
        <input id="new-tag-list" value={name} maxLength={255} disabled={Boolean(writeDenied)} onInput={(e) => setName(e.currentTarget.value)} />
        <Action label="Create tag list" type="submit" kind="primary" denied={writeDenied} busy={busy} />
      </form>
      <ErrorBox error={error ?? lists.error} />
      {lists.loading && !lists.data ? <Loading what="tag lists" /> : null}
      {lists.data && inZone.length === 0 ? <Empty>No tag list in this zone yet.</Empty> : null}
      <ul class="list" aria-label="Tag lists">
        {inZone.map((l) => (
          <li key={l.id}>
            {renaming === l.id ? (
              <form class="row" onSubmit={(e) => rename(e, l)}>
                <label for={`rename-list-${l.id}`}>New name of {l.name}</label>
                <input id={`rename-list-${l.id}`} value={newName} maxLength={255} onInput={(e) => setNewName(e.currentTarget.value)} />
                <Action label="Save name" type="submit" kind="primary" busy={busy} />
                <Action label="Cancel" onClick={() => setRenaming(null)} />
              </form>
            ) : (
              <>
                <Link href={`/console/a/${ctx.accountId}/p/${uuidOf(ctx.project.id)}/t/${uuidOf(l.id)}`}>{l.name}</Link>
                <span class="muted"> {l.tagListType}, version {l.tagsVersion}</span>
              </>
            )}
            <span class="actions">
              {renaming === l.id ? null : (
                <Action
                  label={`Rename ${l.name}`}
                  denied={writeDenied}
                  busy={busy}
                  onClick={() => {
                    setNewName(l.name);
                    setRenaming(l.id);
                  }}
                />
              )}
              <Action
                label={`Delete ${l.name}`}
                kind="danger"
                denied={writeDenied}
                busy={busy}
                onClick={() => confirm(`Delete the tag list ${l.name} and its tags?`) && void run(() => api('DELETE', `${ctx.base}/tag-lists/${uuidOf(l.id)}`)).then((ok) => ok && lists.reload())}
              />
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
