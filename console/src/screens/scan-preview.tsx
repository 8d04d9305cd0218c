// "Show a scan's points" on a tag list's screen: one LAS, LAZ or PLY scan of the project
// drawn as points with the boxes (screens/scan-load.ts), with progress and Cancel.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { ApiPath } from '../paths.ts';
import type { FileItem } from '../types.ts';
import { ScanPointsLayer } from '../three/layers/scan-points.ts';
import type { ZoneView } from '../three/view.ts';
import { ErrorBox, useLoad } from '../ui.tsx';
import { loadScan, previewable, type ScanReading } from './scan-load.ts';

export function ScanPreview(props: { base: ApiPath; view: ZoneView | null; onPoints: (n: number) => void }) {
  const scans = useLoad(() => api<FileItem[]>('GET', `${props.base}/files?category=scan,gaussian`), `${props.base} scans`);
  const [reading, setReading] = useState<ScanReading | null>(null);
  const [error, setError] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const choices = (scans.data ?? []).filter(previewable);

  const show = async (id: string) => {
    const f = choices.find((x) => x.id === id);
    const view = props.view;
    if (!f || !view) return;
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    setError(null);
    const layer = new ScanPointsLayer('scan-preview', `${f.name}.${f.extension}`);
    view.add(layer);
    try {
      await loadScan(props.base, f, layer, (r) => {
        setReading(r);
        props.onPoints(layer.count);
      }, ctl.signal);
      // Framed while reading only until the user moved the camera; on all the points once read.
      view.fit();
    } catch (e) {
      setError(e);
    } finally {
      if (abort.current === ctl) abort.current = null;
    }
  };
  if (!scans.data?.length && !scans.error) return null;
  const reading_ = reading?.fraction !== null && reading !== null;
  return (
    <div class="row scan-preview">
      <label for="scan-preview">Show a scan's points</label>
      <select id="scan-preview" disabled={!choices.length || reading_} onChange={(e) => void show(e.currentTarget.value)}>
        <option value="">{choices.length ? 'Choose a scan…' : 'No LAS, LAZ or PLY scan'}</option>
        {choices.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}.{f.extension}
          </option>
        ))}
      </select>
      {reading_ ? (
        <>
          <progress max={1} value={reading!.fraction!} aria-label="Scan reading" />
          <button type="button" class="secondary small" onClick={() => abort.current?.abort()}>
            Cancel preview
          </button>
        </>
      ) : null}
      <span class="muted" role="status" data-testid="scan-status">
        {reading?.status ?? ''}
      </span>
      <ErrorBox error={error ?? scans.error} onRetry={scans.error ? scans.reload : undefined} />
    </div>
  );
}
