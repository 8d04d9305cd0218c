// The picked tag: its fields, and the form that edits its name, class, box and metadata
// values. One `POST …/tags/bulk {update}` (API 2) saves it: an update replaces the tag's
// whole data, metadata included (API 1's update keeps the stored metadata and cannot set
// it: docs/tags.md), so the form sends back every field it does not edit as read.
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { Tag } from '../types.ts';
import { metadataOf, type Definition } from '../metadata.ts';
import { boxFieldsOf, boxOf, withBox, type BoxKind } from '../tag-box.ts';
import { Action, ErrorBox, useAction } from '../ui.tsx';
import { BoxFields } from './box-fields.tsx';

export function TagFields(props: { tag: Tag; definitions: readonly Definition[]; listUrl: string; denied: string | null; onSaved: () => void; onDeleted: () => void }) {
  const d = props.tag.data;
  const stored = d.metadata ?? [];
  const start = boxFieldsOf(d);
  const [name, setName] = useState(d.name ?? '');
  const [cls, setCls] = useState(d.class ?? '');
  const [kind, setKind] = useState<BoxKind>(start.kind);
  const [numbers, setNumbers] = useState<Record<BoxKind, string[]>>({
    axis: start.kind === 'axis' ? start.numbers : boxFieldsOf({}).numbers,
    oriented: start.kind === 'oriented' ? start.numbers : ['0', '0', '0', '1', '1', '1', '0'],
  });
  // The box is sent only once edited: an untouched box stays exactly as stored.
  const [boxEdited, setBoxEdited] = useState(false);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(stored.map((m) => [m.id, m.value])));
  const [run, busy, error] = useAction();
  const disabled = Boolean(props.denied);
  const { dropped } = metadataOf(props.definitions, values, stored);

  const save = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      // metadata is written when the list defines some or the tag held some (stale ones are dropped), else left out as read.
      const metadata = props.definitions.length || d.metadata ? { metadata: metadataOf(props.definitions, values, stored).metadata } : {};
      let data = { ...d, name: name.trim() || undefined, class: cls.trim() || undefined, ...metadata };
      if (boxEdited) {
        const box = boxOf(kind, numbers[kind]);
        if (typeof box === 'string') throw new Error(box);
        data = withBox(data, box);
      }
      await api('POST', `${props.listUrl}/tags/bulk`, { update: [{ id: props.tag.id, data }] });
      props.onSaved();
    });
  };
  return (
    <div data-testid="picked-tag">
      <dl class="fields">
        <dt>Id</dt>
        <dd>{d.id}</dd>
        <dt>Name</dt>
        <dd class="picked-name">{d.name ?? '—'}</dd>
        <dt>Class</dt>
        <dd>{d.class ?? '—'}</dd>
        {d.orientedBoundingBox ? (
          <>
            <dt>Oriented box</dt>
            <dd class="picked-obb">{d.orientedBoundingBox.map((v) => +v.toFixed(3)).join(', ')}</dd>
          </>
        ) : null}
        {d.boundingBox ? (
          <>
            <dt>Bounding box</dt>
            <dd class="picked-bbox">{d.boundingBox.map((v) => +v.toFixed(3)).join(', ')}</dd>
          </>
        ) : null}
        {props.definitions.map((def) => {
          const v = stored.find((m) => m.id === def.id);
          return v ? (
            <Fragment key={def.id}>
              <dt>{def.name}</dt>
              <dd>{v.value}</dd>
            </Fragment>
          ) : null;
        })}
      </dl>
      <form class="grid-form" onSubmit={save} aria-label="Edit the tag">
        <label for="tag-name">Name</label>
        <input id="tag-name" value={name} maxLength={50} disabled={disabled} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="tag-class-edit">Class</label>
        <input id="tag-class-edit" value={cls} maxLength={50} disabled={disabled} onInput={(e) => setCls(e.currentTarget.value)} />
        <BoxFields
          idPrefix="edit-tag"
          kind={kind}
          numbers={numbers[kind]}
          disabled={disabled || Boolean(start.tilted)}
          onKind={(k) => {
            setKind(k);
            setBoxEdited(true);
          }}
          onNumber={(i, v) => {
            setNumbers((old) => ({ ...old, [kind]: old[kind].map((x, j) => (j === i ? v : x)) }));
            setBoxEdited(true);
          }}
        />
        {start.tilted ? <p class="muted span">{start.tilted}</p> : null}
        {props.definitions.length ? (
          <fieldset class="span">
            <legend>Metadata values</legend>
            <div class="meta-values">
              {props.definitions.map((def, i) => (
                <Fragment key={def.id}>
                  <label for={`tag-meta-${i}`}>{def.name}</label>
                  <input
                    id={`tag-meta-${i}`}
                    value={values[def.id] ?? ''}
                    maxLength={1000}
                    disabled={disabled}
                    onInput={(e) => {
                      const v = e.currentTarget.value;
                      setValues((old) => ({ ...old, [def.id]: v }));
                    }}
                  />
                </Fragment>
              ))}
            </div>
          </fieldset>
        ) : (
          <p class="muted span">This list defines no metadata: add definitions to give tags values.</p>
        )}
        {dropped ? (
          <p class="muted span" data-testid="dropped-metadata">
            {dropped} value{dropped === 1 ? '' : 's'} of a removed definition will be dropped when the tag is saved (the service accepts only the list's defined ids).
          </p>
        ) : null}
        <Action label="Save tag" type="submit" kind="primary" denied={props.denied} busy={busy} />
      </form>
      <Action
        label="Delete tag"
        kind="danger"
        denied={props.denied}
        busy={busy}
        onClick={() =>
          confirm(`Delete the tag ${d.id}?`) &&
          void run(() => api('POST', `${props.listUrl}/tags/bulk`, { delete: [props.tag.id] })).then((ok) => ok && props.onDeleted())
        }
      />
      <ErrorBox error={error} />
    </div>
  );
}
