// A new tag in a tag list (POST …/tags/bulk {create}): id, name, class, and an axis-aligned
// box (min and max corners) or an oriented one (centre, full sizes, and a rotation about
// the vertical axis: console/src/geometry.ts). The service
// checks the geometry again (docs/tags.md "Tag geometry") and computes the enclosing box.
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { TagData } from '../types.ts';
import { quaternionAboutZ } from '../geometry.ts';
import { Action, ErrorBox, useAction } from '../ui.tsx';

type BoxKind = 'axis' | 'oriented';
const AXIS_FIELDS = ['Min X', 'Min Y', 'Min Z', 'Max X', 'Max Y', 'Max Z'] as const;
const ORIENTED_FIELDS = ['Centre X', 'Centre Y', 'Centre Z', 'Size X', 'Size Y', 'Size Z', 'Rotation about Z (degrees)'] as const;

/** The TagData the form describes, or the reason it is not valid yet. */
export function tagDataOf(f: { id: string; name: string; cls: string; kind: BoxKind; numbers: string[] }): TagData | string {
  if (!f.id.trim()) return 'The tag needs an id.';
  const n = f.numbers.map((v) => (v.trim() === '' ? NaN : Number(v)));
  const labels = f.kind === 'axis' ? AXIS_FIELDS : ORIENTED_FIELDS;
  const bad = n.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) return `${labels[bad]} must be a number.`;
  const data: TagData = { id: f.id.trim(), ...(f.name.trim() ? { name: f.name.trim() } : {}), ...(f.cls.trim() ? { class: f.cls.trim() } : {}) };
  if (f.kind === 'axis') {
    for (let a = 0; a < 3; a++) if (n[a]! > n[a + 3]!) return `${AXIS_FIELDS[a]} must not exceed ${AXIS_FIELDS[a + 3]}.`;
    return { ...data, boundingBox: n };
  }
  const [cx, cy, cz, sx, sy, sz, degrees] = n as [number, number, number, number, number, number, number];
  if (sx <= 0 || sy <= 0 || sz <= 0) return 'The sizes must be greater than 0.';
  return { ...data, orientedBoundingBox: [cx, cy, cz, ...quaternionAboutZ(degrees), sx, sy, sz] };
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
  const labels = kind === 'axis' ? AXIS_FIELDS : ORIENTED_FIELDS;
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
        <fieldset class="choice">
          <legend>Box</legend>
          {(['axis', 'oriented'] as const).map((k) => (
            <label key={k}>
              <input type="radio" name="new-tag-box" value={k} checked={kind === k} disabled={disabled} onChange={() => setKind(k)} />{' '}
              {k === 'axis' ? 'Axis-aligned' : 'Oriented'}
            </label>
          ))}
        </fieldset>
        {labels.map((label, i) => (
          <Fragment key={`${kind}-${i}`}>
            <label for={`new-tag-${kind}-${i}`}>
              {label}
            </label>
            <input
              id={`new-tag-${kind}-${i}`}
              type="number"
              step="any"
              value={numbers[i]}
              disabled={disabled}
              onInput={(e) => {
                const v = e.currentTarget.value;
                setNumbers((old) => old.map((x, j) => (j === i ? v : x)));
              }}
            />
          </Fragment>
        ))}
        <Action label="Create tag" type="submit" kind="primary" denied={props.denied} busy={busy} />
      </form>
      <ErrorBox error={error} />
    </>
  );
}
