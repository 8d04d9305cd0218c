// A shared scan in 3D (docs/console.md "Shared links"): the converted scan streamed by level of
// detail through the share session's own routes (its layout, then node by node), so a link
// limited to a box shows only the points inside it (the service never sends the others);
// with the link's annotations as pins and its measurements as lines.
import { useEffect, useState } from 'preact/hooks';
import lazPerfWasm from 'laz-perf/lib/web/laz-perf.wasm?url';
import { CopcPointsLayer, lazPerfModule } from '../three/layers/copc-points.ts';
import { copcBySharedNodes, type SharedLayout } from '../three/layers/shared-nodes.ts';
import { PinLayer } from '../three/layers/pins.ts';
import { MeasureLinesLayer, type DrawnMeasurement } from '../three/layers/measure-lines.ts';
import type { ZoneView } from '../three/view.ts';
import { ErrorBox } from '../ui.tsx';
import { ScenePanel } from './scene-panel.tsx';
import { MEASUREMENT_COLOUR, MEASUREMENTS_LAYER, PINS_LAYER } from './project-context.ts';
import { shareCall, sharedNode } from './shared-api.ts';

interface Point { x: number; y: number; z: number }

export interface SharedSceneProps {
  /** `/share/{link}`. */
  base: string;
  token: string;
  file: { id: string; name: string; extension: string };
  annotations: { id: string; number: number; annotationType: string; title: string; position: Point | null }[] | null;
  measurements: { id: string; kind: DrawnMeasurement['kind']; points: Point[] }[] | null;
}

export function SharedScene(props: SharedSceneProps) {
  const { base, token, file } = props;
  const [view, setView] = useState<ZoneView | null>(null);
  const [status, setStatus] = useState({ drawn: 0, text: 'Reading the scan…', bounded: false });
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (!view) return;
    globalThis.__scanbaseZoneView = view; // the browser tests read the layer's state (as the zone view's)
    const stop = new AbortController();
    const id = `shared:${file.id}`;
    const cloud = `${base}/files/${encodeURIComponent(file.id)}/point-cloud`;
    void (async () => {
      const layout = await shareCall<SharedLayout>('GET', cloud, token);
      if (stop.signal.aborted) return;
      const source = copcBySharedNodes(layout, (key) => sharedNode(`${cloud}/nodes/${encodeURIComponent(key)}`, token, stop.signal));
      const layer = new CopcPointsLayer(id, `${file.name}.${file.extension}`, source, lazPerfModule(lazPerfWasm));
      layer.onChange = () => {
        const s = layer.stats;
        setStatus({
          drawn: s.pointsDrawn, bounded: layout.boxLimit !== null,
          text: `${s.pointsDrawn.toLocaleString('en')} points drawn of ${s.pointCount.toLocaleString('en')} (level of detail); ${s.requests} reads`,
        });
      };
      layer.onError = (e) => !stop.signal.aborted && setError(e);
      view.add(layer);
    })().catch((e: unknown) => !stop.signal.aborted && setError(e));
    return () => {
      stop.abort();
      view.remove(id);
    };
  }, [view, base, token, file.id]);

  useEffect(() => {
    if (!view) return;
    const pins = new PinLayer(PINS_LAYER, 'Annotations');
    const lines = new MeasureLinesLayer(MEASUREMENTS_LAYER, 'Measurements', MEASUREMENT_COLOUR);
    view.add(pins);
    view.add(lines);
    pins.setPins((props.annotations ?? []).flatMap((a) => (a.position ? [{ key: a.id, label: `#${a.number} ${a.title} (${a.annotationType})`, type: a.annotationType, position: a.position }] : [])));
    lines.setMeasurements((props.measurements ?? []).map((m) => ({ kind: m.kind, points: m.points })));
    return () => {
      view.remove(PINS_LAYER);
      view.remove(MEASUREMENTS_LAYER);
    };
  }, [view, props.annotations, props.measurements]);

  return (
    <>
      <ErrorBox error={error} />
      <div class="shared-scene-frame">
        <ScenePanel onView={setView} onPick={() => undefined} drawn={0} points={status.drawn} label={`3D view of ${file.name}.${file.extension}`}>
          <div class="scene-footer" role="status">
            {status.text}
            {status.bounded ? ' — limited to the box this link shares' : ''}
          </div>
        </ScenePanel>
      </div>
    </>
  );
}
