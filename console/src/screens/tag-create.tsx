// A new tag in a tag list (POST …/tags/bulk {create}): id, name, class, and an axis-aligned
// box (min and max corners) or an oriented one (centre, full sizes, and a rotation about
// the vertical axis: console/src/geometry.ts). The service
// checks the geometry again (docs/tags.md "Tag geometry") and computes the enclosing box.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { TagData } from '../types.ts';
import { boxOf, type BoxKind } from '../tag-box.ts';
import { Action, ErrorBox, useAction } from '../ui.tsx';
import { BoxFields } from './box-fields.tsx';

/** The TagData the form describes, or the reason it is not valid yet. */
export function tagDataOf(f: { id: string; name: string; cls: string; kind: BoxKind; numbers: string[] }): TagData | string {
  if (!f.id.trim()) return 'The tag needs an id.';
  const box = boxOf(f.kind, f.numbers);
  if (typeof box === 'string') return box;
  return { id: f.id.trim(), ...(f.name.trim() ? { name: f.name.trim() } : {}), ...(f.cls.trim() ? { class: f.cls.trim() } : {}), ...box };
}

export function NewTagForm(props: { listUrl: string; denied: string | null; onCreated: (id: string) => void }) {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [cls, setCls] = useState('');
  const [kind, setKind] = useState<BoxKind>('axis');
  const [axis, setAxis] = useState<string[]>(['0', '0', '0', '1', '1', '1']);
  const [oriented, setOriented] = useState<string[]>(['0', '0', '0', '1', '1', '1', '0']);
  const [run, busy, error] = useAction();
  const numbers = kind === 'axis' ? axis : oriented;
  const setNumbers = kind === 'axis' ? setAxis : setOriented;
  const disabled = Boolean(props.denied);

  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const data = tagDataOf({ id, name, cls, kind, numbers });
      if (typeof data === 'string') throw new Error(data);
      await api('POST', `${props.listUrl}/tags/bulk`, { create: [{ data }] });
      setId('');
      setName('');
      props.onCreated(data.id);
    });
  };
  return (
    <>
      <form class="grid-form new-tag" onSubmit={submit} aria-label="New tag">
        <label for="new-tag-id">Id</label>
        <input id="new-tag-id" value={id} maxLength={255} required disabled={disabled} onInput={(e) => setId(e.currentTarget.value)} />
        <label for="new-tag-name">Name</label>
        <input id="new-tag-name" value={name} maxLength={50} disabled={disabled} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="new-tag-class">Class</label>
        <input id="new-tag-class" value={cls} maxLength={50} disabled={disabled} onInput={(e) => setCls(e.currentTarget.value)} />
        <BoxFields
          idPrefix="new-tag"
          kind={kind}
          numbers={numbers}
          disabled={disabled}
          onKind={setKind}
          onNumber={(i, v) => setNumbers((old) => old.map((x, j) => (j === i ? v : x)))}
        />
        <Action label="Create tag" type="submit" kind="primary" denied={props.denied} busy={busy} />
      </form>
      <ErrorBox error={error} />
    </>
  );
}
