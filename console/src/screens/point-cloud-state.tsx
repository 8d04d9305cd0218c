// A point-cloud file's conversion to COPC in the files list (docs/point-clouds.md "The
// module"): "COPC 42 % · indexing · 1 min left" while it runs (looked at every 2 s), "COPC
// ready · 20.1 M points" once done, "COPC failed: <message>" with the reason. Files that
// are not point clouds show nothing.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { ApiPath } from '../paths.ts';
import type { FileItem } from '../types.ts';

const POINT_CLOUDS = new Set(['e57', 'las', 'laz', 'ply']);
const POLL_MS = 2000;

export interface Conversion {
  state: 'pending' | 'queued' | 'converting' | 'done' | 'failed';
  phase: string | null;
  percent: number;
  etaSeconds: number | null;
  pointCount: number | null;
  reason: string | null;
  message: string | null;
}

export const isPointCloud = (f: Pick<FileItem, 'extension'>) => POINT_CLOUDS.has(f.extension.toLowerCase());

const eta = (s: number | null) => (s === null ? '' : s < 90 ? ` · ${Math.max(1, Math.round(s))} s left` : ` · ${Math.round(s / 60)} min left`);
const points = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)} k` : String(n));

export function describeConversion(c: Conversion): string {
  if (c.state === 'done') return `COPC ready · ${points(c.pointCount ?? 0)} points`;
  if (c.state === 'failed') return `COPC failed: ${c.message ?? c.reason ?? 'unknown reason'}`;
  if (c.state === 'converting') return `COPC ${Math.floor(c.percent)} %${c.phase ? ` · ${c.phase}` : ''}${eta(c.etaSeconds)}`;
  return 'COPC queued';
}

export function PointCloudState(props: { url: ApiPath }) {
  const [conversion, setConversion] = useState<Conversion | null>(null);
  const url = String(props.url);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = async () => {
      try {
        const c = await api<Conversion>('GET', url);
        if (stopped) return;
        setConversion(c);
        if (c.state !== 'done' && c.state !== 'failed') timer = setTimeout(() => void look(), POLL_MS);
      } catch {
        // Not readable by this caller, or the service is away: the row shows nothing (the list shows the error of the service).
      }
    };
    void look();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [url]);
  if (!conversion) return null;
  return (
    <span class={`meta nowrap conversion ${conversion.state}`} role="status" title={conversion.reason ?? undefined}>
      {describeConversion(conversion)}
    </span>
  );
}
