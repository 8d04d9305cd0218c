// A project's work zones as a tree (pick one: the screen shows it), with creating a zone
// under the chosen one (inline form), renaming it (a dialog) and deleting it (asked first).
import { useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { apiPath } from '../paths.ts';
import type { Workzone } from '../types.ts';
import { Action, ErrorBox, RenameDialog, IconButton, Icon, deniedUnless, toast, useAction, useConfirm } from '../ui.tsx';
import { same, type Ctx } from './project-context.ts';

export function ZoneTree(props: { ctx: Ctx; zones: Workzone[]; selected: string | null; onSelect: (id: string) => void; onChange: () => void }) {
  const { ctx, zones } = props;
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState(false);
  const [newName, setNewName] = useState('');
  const [run, busy, error] = useAction();
  const [ask, confirmDialog] = useConfirm();
  const writeDenied = deniedUnless(ctx.perms, 'workzone:workzones:write');
  const children = (parent: string | null) => zones.filter((z) => (parent === null ? z.parentId === null : same(z.parentId, parent)));
  const selected = zones.find((z) => same(z.id, props.selected));
  const isRoot = selected && selected.parentId === null;
  const zoneUrl = (z: Workzone) => apiPath`${ctx.base}/workzones/${uuidOf(z.id)}`;

  const node = (z: Workzone) => (
    <li key={z.id} role="treeitem" aria-selected={same(z.id, props.selected)} aria-expanded={children(z.id).length ? true : undefined}>
      <button type="button" class={same(z.id, props.selected) ? 'zone-name current' : 'zone-name'} onClick={() => props.onSelect(z.id)}>
        <Icon name="folder" size={16} />
        <span>{z.name}</span>
      </button>
      {children(z.id).length ? <ul role="group">{children(z.id).map(node)}</ul> : null}
    </li>
  );
  const create = async (e: Event) => {
    e.preventDefault();
    if (!selected || !name.trim()) return;
    if (await run(() => api('POST', apiPath`${ctx.base}/workzones`, { name: name.trim(), parentWorkzoneId: selected.id }))) {
      toast(`Zone ${name.trim()} created`);
      setName('');
      props.onChange();
    }
  };
  const rename = async (name: string) => {
    if (!selected) return;
    if (await run(() => api('PUT', zoneUrl(selected), { name }))) {
      setRenaming(false);
      props.onChange();
    }
  };
  const remove = async () => {
    if (!selected) return;
    const ok = await ask({ title: 'Delete the work zone?', body: `${selected.name} and everything in it (zones, files, tag lists) will be deleted.`, action: 'Delete zone' });
    if (ok && (await run(() => api('DELETE', zoneUrl(selected))))) {
      toast(`Zone ${selected.name} deleted`);
      props.onSelect(uuidOf(ctx.project.rootWorkzoneId));
      props.onChange();
    }
  };
  return (
    <div class="zone-tree">
      <div class="panel-title">
        <h2 id="zones-h">Work zones</h2>
        {selected ? (
          <span class="tools">
            <IconButton
              icon="rename"
              label="Rename zone"
              denied={writeDenied}
              disabled={busy}
              onClick={() => {
                setNewName(selected.name);
                setRenaming(true);
              }}
            />
            <IconButton icon="remove" label="Delete zone" danger denied={isRoot ? 'The root zone is deleted with its project' : writeDenied} disabled={busy} onClick={() => void remove()} />
          </span>
        ) : null}
      </div>
      <ul role="tree" aria-label="Work zones" class="tree">
        {children(null).map(node)}
      </ul>
      <form class="row compact" onSubmit={create}>
        <label for="new-zone" class="visually-hidden">
          New zone under {selected?.name ?? '…'}
        </label>
        <input id="new-zone" placeholder={`New zone under ${selected?.name ?? '…'}`} value={name} maxLength={255} disabled={Boolean(writeDenied)} onInput={(e) => setName(e.currentTarget.value)} />
        <Action label="Create zone" type="submit" kind="primary" denied={writeDenied} busy={busy} />
      </form>
      <ErrorBox error={error} />
      <RenameDialog
        open={renaming}
        title="Rename the work zone"
        label="New name of the work zone"
        id="rename-zone"
        value={newName}
        onInput={setNewName}
        onSave={(name) => void rename(name)}
        onClose={() => setRenaming(false)}
        busy={busy}
      />
      {confirmDialog}
    </div>
  );
}
