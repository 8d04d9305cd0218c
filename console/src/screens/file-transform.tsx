// Moving a file in space (POST …/files/bulk-transformation, docs/files.md): a translation,
// a rotation about Z and, for 360 videos and Gaussian splats only, a scale. Which
// categories may be transformed and with which permission is the table below (the
// service's rule, src/core/files/file-permissions.ts, as docs/files.md states it).
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import type { ApiPath } from '../paths.ts';
import { degreesAboutZ, quaternionAboutZ } from '../geometry.ts';
import type { FileItem } from '../types.ts';
import { Action, ErrorBox, deniedUnless, useAction } from '../ui.tsx';

/** Per category: the permission a transformation needs, and whether it may scale. */
const TRANSFORMABLE: Record<string, { permission: string; scales: boolean }> = {
  scan: { permission: 'workzone:reality-data:transform', scales: false },
  geoImage: { permission: 'workzone:reality-data:transform', scales: false },
  model: { permission: 'workzone:cad-model:transform', scales: false },
  video3d: { permission: 'workzone:video3d:write', scales: true },
  gaussian: { permission: 'workzone:reality-data:transform', scales: true },
};

/** Why the caller may not transform `file` (null: may), or undefined when its category cannot be transformed. */
export function transformDenied(file: FileItem, granted: ReadonlySet<string> | undefined): string | null | undefined {
  const rule = TRANSFORMABLE[file.type];
  return rule ? deniedUnless(granted, rule.permission) : undefined;
}

const AXES = ['x', 'y', 'z'] as const;

export function TransformForm(props: { file: FileItem; base: ApiPath; onDone: () => void; onCancel: () => void }) {
  const f = props.file;
  const scales = TRANSFORMABLE[f.type]?.scales ?? false;
  const [translation, setTranslation] = useState(AXES.map((a) => String(f.translation?.[a] ?? 0)));
  const [degrees, setDegrees] = useState(String(f.rotation ? degreesAboutZ(f.rotation) : 0));
  const [scale, setScale] = useState(AXES.map((a) => String(f.scale?.[a] ?? 1)));
  const [run, busy, error] = useAction();
  const vector = (v: string[], what: string) => {
    const n = v.map(Number);
    if (v.some((s) => s.trim() === '') || n.some((x) => !Number.isFinite(x))) throw new Error(`The ${what} needs three numbers.`);
    return { x: n[0]!, y: n[1]!, z: n[2]! };
  };
  const save = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const angle = Number(degrees);
      if (degrees.trim() === '' || !Number.isFinite(angle)) throw new Error('The rotation needs a number of degrees.');
      const [x, y, z, w] = quaternionAboutZ(angle);
      const body = [
        { id: uuidOf(f.id), translation: vector(translation, 'translation'), rotation: { x, y, z, w }, ...(scales ? { scale: vector(scale, 'scale') } : {}) },
      ];
      await api('POST', `${props.base}/files/bulk-transformation`, body);
      props.onDone();
    });
  };
  const numbers = (prefix: string, label: string, v: string[], set: (v: string[]) => void) =>
    AXES.map((a, i) => (
      <Fragment key={`${prefix}-${a}`}>
        <label for={`${prefix}-${a}-${f.id}`}>
          {label} {a.toUpperCase()}
        </label>
        <input id={`${prefix}-${a}-${f.id}`} type="number" step="any" value={v[i]} onInput={(e) => set(v.map((x, j) => (j === i ? e.currentTarget.value : x)))} />
      </Fragment>
    ));
  return (
    <>
      <form class="grid-form" onSubmit={save} aria-label={`Transform ${f.name}`}>
        {numbers('move', 'Move', translation, setTranslation)}
        <label for={`turn-${f.id}`}>Rotation about Z (degrees)</label>
        <input id={`turn-${f.id}`} type="number" step="any" value={degrees} onInput={(e) => setDegrees(e.currentTarget.value)} />
        {scales ? numbers('scale', 'Scale', scale, setScale) : null}
        <span>
          <Action label={`Save the transformation of ${f.name}`} type="submit" kind="primary" busy={busy} />
          <Action label="Cancel" onClick={props.onCancel} />
        </span>
      </form>
      <ErrorBox error={error} />
    </>
  );
}
