// The rows of uploads in progress: each file's progress, state, error and its own Cancel.
import type { UploadProgress } from '../upload.ts';

export function UploadList(props: { uploads: UploadProgress[]; controllers: AbortController[] }) {
  if (!props.uploads.length) return null;
  return (
    <ul class="uploads" aria-label="Uploads">
      {props.uploads.map((u, i) => (
        <li key={i}>
          <span>{u.name}</span> <progress max={1} value={u.fraction} aria-label={`Upload of ${u.name}`} /> <span class="state">{u.state}</span>
          {u.error ? <span class="error-text"> {u.error}</span> : null}
          {u.state === 'uploading' || u.state === 'hashing' ? (
            <button type="button" class="plain" onClick={() => props.controllers[i]?.abort()}>
              Cancel {u.name}
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
