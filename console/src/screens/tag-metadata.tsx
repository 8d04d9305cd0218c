// A tag list's metadata definitions (id, name): add, rename, remove, saved with API 1's
// `PUT /api/accounts/{a}/projects/{p}/tag-lists/{t}` `{data: {metadataDefinitions},
// cleanRemovedMetadataIds}`, the only operation that can also strip a removed definition's
// values from every tag (API 2's overwrite sets definitions but never cleans). API 1's
// `data` is a patch: the list's name, description and colour stay.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { apiPath } from '../paths.ts';
import type { TagList } from '../types.ts';
import { MAX_DEFINITION_NAME, definitionsOf, type Definition } from '../metadata.ts';
import { Action, ErrorBox, useAction } from '../ui.tsx';

export function MetadataDefinitions(props: { list: TagList; accountId: string; projectId: string; denied: string | null; onSaved: () => void }) {
  const [rows, setRows] = useState<Definition[]>(props.list.metadataDefinition);
  const [added, setAdded] = useState('');
  const [clean, setClean] = useState(false);
  const [run, busy, error] = useAction();
  const disabled = Boolean(props.denied);
  const removed = props.list.metadataDefinition.filter((d) => !rows.some((r) => r.id === d.id));
  const changed = JSON.stringify(rows) !== JSON.stringify(props.list.metadataDefinition);

  const save = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const defs = definitionsOf(rows);
      if (typeof defs === 'string') throw new Error(defs);
      await api('PUT', apiPath`/api/accounts/${props.accountId}/projects/${props.projectId}/tag-lists/${props.list.api1Id}`, {
        data: { metadataDefinitions: defs },
        cleanRemovedMetadataIds: clean,
      });
      setClean(false);
      props.onSaved();
    });
  };
  return (
    <form onSubmit={save} aria-labelledby="meta-defs-h" class="metadata-definitions">
      <h2 id="meta-defs-h">Metadata definitions</h2>
      {rows.length ? (
        <table>
          <caption class="muted">Each tag may hold one value per definition.</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Id</th>
              <th scope="col">
                <span class="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={r.id}>
                <td>
                  <input
                    aria-label={`Name of definition ${i + 1}`}
                    value={r.name}
                    maxLength={MAX_DEFINITION_NAME}
                    disabled={disabled}
                    onInput={(e) => {
                      const v = e.currentTarget.value;
                      setRows((old) => old.map((x, j) => (j === i ? { ...x, name: v } : x)));
                    }}
                  />
                </td>
                <td>
                  <code>{r.id}</code>
                </td>
                <td>
                  <button type="button" class="plain" disabled={disabled} aria-label={`Remove the definition ${r.name || i + 1}`} onClick={() => setRows((old) => old.filter((_, j) => j !== i))}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">No metadata definition yet.</p>
      )}
      <div class="row">
        <label for="meta-def-new">New definition's name</label>
        <input id="meta-def-new" value={added} maxLength={MAX_DEFINITION_NAME} disabled={disabled} onInput={(e) => setAdded(e.currentTarget.value)} />
        <button
          type="button"
          class="plain"
          disabled={disabled || !added.trim()}
          onClick={() => {
            setRows((old) => [...old, { id: crypto.randomUUID(), name: added.trim() }]);
            setAdded('');
          }}
        >
          Add definition
        </button>
      </div>
      {removed.length ? (
        <div class="row">
          <input id="meta-clean" type="checkbox" checked={clean} disabled={disabled} onChange={(e) => setClean(e.currentTarget.checked)} aria-describedby="meta-clean-why" />
          <label for="meta-clean">Also delete the removed definitions' values from every tag</label>
          <small id="meta-clean-why" class="muted">
            Removing {removed.map((d) => d.name).join(', ')}. Checked, every tag of the list loses its values for them (one change of the list,
            cleanRemovedMetadataIds). Unchecked, tags keep those values in their data: the console no longer shows them, other clients still read them,
            and saving a tag here drops them (the service accepts only defined ids).
          </small>
        </div>
      ) : null}
      <Action label="Save definitions" type="submit" kind="primary" denied={props.denied ?? (changed ? null : 'No change to save')} busy={busy} />
      <ErrorBox error={error} />
    </form>
  );
}
