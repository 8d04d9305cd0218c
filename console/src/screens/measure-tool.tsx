// The measuring tool of the 3D view (docs/console.md "Measuring"): while it is open, clicks in
// the scene add points (on a box or a scan, else on the ground plane) instead of selecting;
// the kind (distance, polyline, area, height) decides how many; the value is shown as the
// points come, the measurement in progress is drawn as a line, and Save creates it through
// the measurements extension (`POST …/measurements`, points in project coordinates).
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Vector3 } from 'three';
import { api } from '../api.ts';
import { apiPath, type ApiPath } from '../paths.ts';
import { MEASURE_POINTS, liveMeasure, withPoint, type MeasureKind, type Point } from '../geometry.ts';
import { Action, ErrorBox, IconButton, deniedUnless, useAction } from '../ui.tsx';
import type { ZoneView } from '../three/view.ts';
import { MeasureLinesLayer } from '../three/layers/measure-lines.ts';
import { KINDS } from './annotations.tsx';

/** The layer of the measurement in progress. */
export const DRAFT_LAYER = 'measure:draft';
/** The tool's colour: apart from the saved measurements' and the highlight. */
const DRAFT_COLOUR = 0xe8590c;

export function MeasureTool(props: {
  view: ZoneView;
  base: ApiPath;
  zoneId: string;
  perms: ReadonlySet<string> | undefined;
  onSaved: () => void;
  onClose: () => void;
}) {
  const { view } = props;
  const [kind, setKind] = useState<MeasureKind>('distance');
  const [points, setPoints] = useState<Point[]>([]);
  const [name, setName] = useState('');
  const [run, busy, error] = useAction();
  const writeDenied = deniedUnless(props.perms, 'workzone:measurements:write');
  const kindRef = useRef(kind);
  kindRef.current = kind;

  // While open, the view's clicks are points (taken before the tool paints, as "Place in 3D"
  // does in project.tsx); the draft is drawn as its own layer.
  useLayoutEffect(() => {
    const layer = new MeasureLinesLayer(DRAFT_LAYER, 'Measurement in progress', DRAFT_COLOUR, false);
    view.add(layer);
    const take = (local: Vector3) => setPoints((ps) => withPoint(kindRef.current, ps, view.toProject(local)));
    view.setPointHandler(take);
    return () => {
      view.releasePointHandler(take);
      view.remove(DRAFT_LAYER);
    };
  }, [view]);
  useEffect(() => {
    view.layer<MeasureLinesLayer>(DRAFT_LAYER)?.setMeasurements(points.length ? [{ kind, points }] : []);
  }, [view, kind, points]);

  const live = liveMeasure(kind, points);
  const need = MEASURE_POINTS[kind].min;
  const save = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      if (!live) throw new Error(`A ${kind} measurement needs ${need} points or more.`);
      await api('POST', apiPath`${props.base}/measurements`, { workzoneId: props.zoneId, name: name.trim() || `${kind[0]!.toUpperCase()}${kind.slice(1)}`, kind, points });
      setPoints([]);
      setName('');
      props.onSaved();
    });
  };
  return (
    <section class="measure-tool" aria-labelledby="measure-h">
      <header>
        <h2 id="measure-h">Measure</h2>
        <IconButton icon="close" label="Close the measuring tool" onClick={props.onClose} />
      </header>
      <form onSubmit={save} aria-label="Measurement in the 3D view">
        <label>
          Kind{' '}
          <select
            value={kind}
            onChange={(e) => {
              setKind(e.currentTarget.value as MeasureKind);
              setPoints([]);
            }}
          >
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <p class="measure-value" role="status" data-testid="measure-value">
          {live
            ? `${kind === 'area' ? 'Area' : kind === 'height' ? 'Height' : 'Length'} ${live.value.toFixed(3)} ${live.unit}${live.perimeter === undefined ? '' : ` (perimeter ${live.perimeter.toFixed(3)} m)`}`
            : `Click ${need - points.length} more point${need - points.length === 1 ? '' : 's'} in the view`}
        </p>
        <label>
          Name <input value={name} maxLength={255} placeholder={kind} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <div class="row">
          <Action label="Save the measurement" type="submit" kind="primary" denied={writeDenied} busy={busy} />
          <button type="button" disabled={!points.length} onClick={() => setPoints((ps) => ps.slice(0, -1))}>
            Undo point
          </button>
        </div>
      </form>
      <ErrorBox error={error} />
    </section>
  );
}

