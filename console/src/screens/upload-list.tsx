// The rows of uploads in progress: each file's progress, state, error, its own Cancel, and
// Retry for a file that failed (a refusal, a network failure, a stalled upload).
import type { UploadProgress } from '../upload.ts';
import { formatSize } from '../format.ts';

/** "12.3 MB/s, 1 min 4 s left" (the size as formatSize writes it). */
function rateText(bytesPerSecond: number, etaSeconds: number | undefined): string {
  const rate = `${formatSize(bytesPerSecond)}/s`;
  if (etaSeconds === undefined || !Number.isFinite(etaSeconds)) return rate;
  const s = Math.max(0, Math.round(etaSeconds));
  return `${rate}, ${s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`} left`;
}

export function UploadList(props: { uploads: UploadProgress[]; controllers: AbortController[]; onRetry?: (i: number) => void }) {
  if (!props.uploads.length) return null;
  return (
    <ul class="uploads" aria-label="Uploads">
      {props.uploads.map((u, i) => (
        <li key={i}>
          <span>{u.name}</span> <progress max={1} value={u.fraction} aria-label={`Upload of ${u.name}`} /> <span class="state">{u.state}</span>
          {u.state === 'uploading' && u.bytesPerSecond ? <span class="rate"> {rateText(u.bytesPerSecond, u.etaSeconds)}</span> : null}
          {u.partsHeld ? <span class="resumed"> (resumed: {u.partsHeld} parts were already there)</span> : null}
          {u.error ? <span class="error-text"> {u.error}</span> : null}
          {u.state === 'uploading' || u.state === 'hashing' ? (
            <button type="button" class="secondary small" onClick={() => props.controllers[i]?.abort()}>
              Cancel {u.name}
            </button>
          ) : null}
          {u.state === 'failed' && props.onRetry ? (
            <button type="button" class="secondary small" onClick={() => props.onRetry!(i)}>
              Retry {u.name}
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
