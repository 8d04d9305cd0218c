// A zone's tag lists in the side panel: each with its colour (the colour its boxes have in
// the 3D view), shown or hidden in the view, its tags (a click selects one: marked in the
// scene, its card over it), renamed in a dialog, deleted after asking, and the list's own
// screen (the full table, the tag editor, metadata definitions) one click away.
import { useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { apiPath } from '../paths.ts';
import type { Tag, TagList } from '../types.ts';
import { Action, Empty, RenameDialog, ErrorBox, IconButton, Link, LoadState, deniedUnless, toast, useAction, useConfirm, type Loaded } from '../ui.tsx';
import { count } from '../format.ts';
import { same, type Ctx, type ZoneSelection } from './project-context.ts';

/** Tags listed per list in the panel; the list's own screen has the windowed table of all. */
export const TAGS_IN_PANEL = 200;

/** The swatch of a list's colour (`#rrggbb`), or a neutral one. */
export function Swatch(props: { colour: string | null | undefined }) {
  const ok = /^#?[0-9a-f]{6}$/i.test(props.colour ?? '');
  return <span class="swatch" aria-hidden="true" ref={(el) => {
        if (el) el.style.background = ok ? `#${props.colour!.replace('#', '')}` : '';
      }} />;
}

export function TagListsPanel(props: {
  ctx: Ctx;
  zoneId: string;
  lists: Loaded<TagList[]>;
  tags: ReadonlyMap<string, Tag[] | Error>;
  hidden: ReadonlySet<string>;
  onToggle: (listId: string, visible: boolean) => void;
  selection: ZoneSelection | null;
  onSelect: (s: ZoneSelection) => void;
}) {
  const { ctx, zoneId, lists } = props;
  const [name, setName] = useState('');
  const [run, busy, error] = useAction();
  const [ask, confirmDialog] = useConfirm();
  const writeDenied = deniedUnless(ctx.perms, 'workzone:tags:write');
  const inZone = (lists.data ?? []).filter((l) => same(l.workzoneId, zoneId));
  const [renaming, setRenaming] = useState<TagList | null>(null);
  const [newName, setNewName] = useState('');
  const listUrl = (l: TagList) => apiPath`${ctx.base}/tag-lists/${uuidOf(l.id)}`;
  // PUT overwrites every field of the list (docs/tags.md): send the others back as they are.
  const rename = async (name: string) => {
    const l = renaming;
    if (!l) return;
    const body = {
      workzoneId: l.workzoneId, tagListType: l.tagListType, name, description: l.description, color: l.color,
      metadataDefinition: l.metadataDefinition, attachments: l.attachments,
    };
    if (await run(() => api('PUT', listUrl(l), body))) {
      setRenaming(null);
      lists.reload();
    }
  };
  const create = async (e: Event) => {
    e.preventDefault();
    if (!name.trim()) return;
    if (await run(() => api('POST', apiPath`${ctx.base}/tag-lists`, { workzoneId: zoneId, tagListType: '3d', name: name.trim() }))) {
      toast(`Tag list ${name.trim()} created`);
      setName('');
      lists.reload();
    }
  };
  const remove = async (l: TagList) => {
    const ok = await ask({ title: 'Delete the tag list?', body: `${l.name} and its tags will be deleted.`, action: 'Delete tag list' });
    if (ok && (await run(() => api('DELETE', listUrl(l))))) {
      toast(`Tag list ${l.name} deleted`);
      lists.reload();
    }
  };
  return (
    <div class="tag-lists-panel">
      <form class="row compact" onSubmit={create}>
        <label for="new-tag-list" class="visually-hidden">
          New tag list name
        </label>
        <input id="new-tag-list" placeholder="New tag list name" value={name} maxLength={255} disabled={Boolean(writeDenied)} onInput={(e) => setName(e.currentTarget.value)} />
        <Action label="Create tag list" type="submit" kind="primary" denied={writeDenied} busy={busy} />
      </form>
      <ErrorBox error={error} />
      <LoadState of={[lists]} what="tag lists" />
      {lists.data && inZone.length === 0 ? <Empty icon="tags">No tag list in this zone yet.</Empty> : null}
      <ul class="lists" aria-label="Tag lists">
        {inZone.map((l) => {
          const tags = props.tags.get(uuidOf(l.id));
          const visible = !props.hidden.has(uuidOf(l.id));
          return (
            <li key={l.id} class="tag-list-item">
              <div class="list-head">
                <Swatch colour={l.color} />
                <Link href={`/console/a/${ctx.accountId}/p/${uuidOf(ctx.project.id)}/t/${uuidOf(l.id)}`} class="list-name">
                  {l.name}
                </Link>
                <span class="muted nowrap">{Array.isArray(tags) ? count(tags.length, 'tag') : ''}</span>
                <span class="tools">
                  <IconButton icon={visible ? 'show' : 'hide'} label={`Show ${l.name} in 3D`} pressed={visible} onClick={() => props.onToggle(uuidOf(l.id), !visible)} />
                  <IconButton
                    icon="rename"
                    label={`Rename ${l.name}`}
                    denied={writeDenied}
                    disabled={busy}
                    onClick={() => {
                      setNewName(l.name);
                      setRenaming(l);
                    }}
                  />
                  <IconButton icon="remove" label={`Delete ${l.name}`} danger denied={writeDenied} disabled={busy} onClick={() => void remove(l)} />
                </span>
              </div>
              {tags instanceof Error ? <ErrorBox error={tags} /> : null}
              {Array.isArray(tags) && tags.length ? (
                <ul class="tags-of-list" aria-label={`Tags of ${l.name}`}>
                  {tags.slice(0, TAGS_IN_PANEL).map((t, i) => {
                    const current = props.selection?.kind === 'tag' && same(props.selection.listId, l.id) && props.selection.index === i;
                    return (
                      <li key={t.id}>
                        <button type="button" class={current ? 'tag-item current' : 'tag-item'} aria-pressed={current} onClick={() => props.onSelect({ kind: 'tag', listId: uuidOf(l.id), index: i })}>
                          <span class="tag-name">{t.data.name ?? t.data.id}</span>
                          <span class="muted">{t.data.id}</span>
                        </button>
                      </li>
                    );
                  })}
                  {tags.length > TAGS_IN_PANEL ? (
                    <li class="muted">
                      {count(tags.length - TAGS_IN_PANEL, 'more tag')}: <Link href={`/console/a/${ctx.accountId}/p/${uuidOf(ctx.project.id)}/t/${uuidOf(l.id)}`}>open the table</Link>
                    </li>
                  ) : null}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ul>
      <RenameDialog
        open={renaming !== null}
        title={renaming ? `Rename ${renaming.name}` : 'Rename'}
        label={`New name of ${renaming?.name ?? ''}`}
        id="rename-list"
        value={newName}
        onInput={setNewName}
        onSave={(name) => void rename(name)}
        onClose={() => setRenaming(null)}
        busy={busy}
      />
      {confirmDialog}
    </div>
  );
}
