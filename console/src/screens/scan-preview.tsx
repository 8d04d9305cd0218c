// "Show a scan's points": a LAS, LAZ or PLY scan of the project drawn as points in the tag
// list's view. Uncompressed LAS is streamed by byte ranges (three/las-stream.ts: points
// drawn as each window arrives, bounded, cancellable); LAZ and PLY are read whole (capped)
// and decoded in the page (three/point-cloud.ts): neither can be cut into ranges that
// decode on their own (LAZ's chunk table is at the end of the file and its chunks are
// arithmetic-coded; PLY's records are variable in ASCII and its header has no index).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { FileItem } from '../types.ts';
import { PREVIEW_EXTENSIONS, decodePoints, download, type PointPreview } from '../three/point-cloud.ts';
import { WholeFileNeeded, streamLas } from '../three/las-stream.ts';
import type { BoxScene } from '../three/box-scene.ts';
import { ErrorBox, useLoad } from '../ui.tsx';

const MiB = 2 ** 20;
const mib = (n: number) => `${(n / MiB).toFixed(n < 10 * MiB ? 1 : 0)} MiB`;

declare global {
  // The last preview's reading, for the browser tests (docs/console.md).
  var __scanbasePreview: { bytes: number; size: number; points: number; streamed: boolean; done: boolean } | undefined;
}

export function ScanPreview(props: { base: string; scene: BoxScene | null; onPoints: (n: number) => void }) {
  const scans = useLoad(() => api<FileItem[]>('GET', `${props.base}/files?category=scan,gaussian`), `${props.base} scans`);
  const [progress, setProgress] = useState<number | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const previewable = (scans.data ?? []).filter((f) => (PREVIEW_EXTENSIONS as readonly string[]).includes(f.extension.toLowerCase()));

  const show = async (id: string) => {
    const f = previewable.find((x) => x.id === id);
    const scene = props.scene;
    if (!f || !scene) return;
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    setError(null);
    setStatus('');
    const shown = (p: PointPreview, fit: boolean) => {
      scene.setPoints(p, fit);
      props.onPoints(p.count);
    };
    const reading = { bytes: 0, size: f.size, points: 0, streamed: false, done: false };
    globalThis.__scanbasePreview = reading;
    try {
      setProgress(0);
      const { urls } = await api<{ urls: Record<string, string> }>('POST', `${props.base}/blobs`, [f.blobName]);
      const url = urls[f.blobName]!;
      let preview: PointPreview | null = null;
      if (f.extension.toLowerCase() === 'las') {
        try {
          let first = true;
          reading.streamed = true;
          preview = await streamLas(url, (p) => {
            shown(p.preview, first);
            first = false;
            Object.assign(reading, { bytes: p.bytes, points: p.preview.count });
            setProgress(p.fraction);
            setStatus(`${p.preview.count.toLocaleString('en')} points of ${p.preview.total.toLocaleString('en')}; ${mib(p.bytes)} read of ${mib(f.size)}`);
          }, ctl.signal);
          // Framed on the first window while reading; on all the points once read.
          scene.fitToView();
        } catch (e) {
          if (!(e instanceof WholeFileNeeded)) throw e;
          reading.streamed = false;
          setStatus(`${e.message} Reading the whole file…`);
        }
      }
      if (!preview) {
        const bytes = await download(url, setProgress, ctl.signal);
        reading.bytes = bytes.byteLength;
        setStatus('Decoding…');
        preview = await decodePoints(bytes, f.extension);
        shown(preview, true);
      }
      reading.points = preview.count;
      reading.done = true;
      setStatus(`${preview.count.toLocaleString('en')} points shown of ${preview.total.toLocaleString('en')}; ${mib(reading.bytes)} read of ${mib(f.size)}`);
    } catch (e) {
      if (ctl.signal.aborted) setStatus(`Cancelled: ${reading.points.toLocaleString('en')} points shown; ${mib(reading.bytes)} read of ${mib(f.size)}`);
      else setError(e);
    } finally {
      if (abort.current === ctl) abort.current = null;
      setProgress(null);
    }
  };
  if (!scans.data?.length && !scans.error) return null;
  return (
    <div class="row">
      <label for="scan-preview">Show a scan's points</label>
      <select id="scan-preview" disabled={!previewable.length || progress !== null} onChange={(e) => void show(e.currentTarget.value)}>
        <option value="">{previewable.length ? 'Choose a scan…' : 'No LAS, LAZ or PLY scan'}</option>
        {previewable.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}.{f.extension}
          </option>
        ))}
      </select>
      {progress !== null ? (
        <>
          <progress max={1} value={progress} aria-label="Scan reading" />
          <button type="button" class="plain" onClick={() => abort.current?.abort()}>
            Cancel preview
          </button>
        </>
      ) : null}
      <span class="muted" role="status" data-testid="scan-status">
        {status}
      </span>
      <ErrorBox error={error ?? scans.error} />
    </div>
  );
}
