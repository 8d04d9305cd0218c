// A project's cover: shown through a signed download URL (POST …/blobs), replaced through
// the cover upload flow (docs/files.md "Project cover": sign with POST …/cover, PUT the
// bytes, register with PUT …/cover). PNG or JPEG only; the service checks the bytes too.
import { useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { ApiPath } from '../paths.ts';
import type { Project } from '../types.ts';
import { md5Hex, putBlob, splitName } from '../upload.ts';
import { Action, ErrorBox, deniedUnless, useAction, useLoad } from '../ui.tsx';

const COVER_EXTENSIONS = ['png', 'jpg', 'jpeg'];
/** The service's limit (docs/files.md): 10 MiB. */
const MAX_COVER_BYTES = 10 * 1024 * 1024;

interface SignedCover {
  file: { url: string; blobName: string };
}

export function ProjectCover(props: { base: ApiPath; project: Project; onChange: () => void }) {
  const { project } = props;
  const blob = project.coverBlobName;
  const image = useLoad(
    () => (blob ? api<{ urls: Record<string, string> }>('POST', `${props.base}/blobs`, [blob]).then((r) => r.urls[blob] ?? null) : Promise.resolve(null)),
    `${props.base} cover ${blob ?? ''}`,
  );
  const input = useRef<HTMLInputElement>(null);
  const [run, busy, error] = useAction();
  const [state, setState] = useState('');
  const denied = deniedUnless(project.permissions, 'project:project:update-details');

  const upload = (file: File) =>
    run(async () => {
      const { name, extension } = splitName(file.name);
      if (!COVER_EXTENSIONS.includes(extension)) throw new Error('A cover is a PNG or JPEG image (.png, .jpg, .jpeg).');
      if (file.size === 0 || file.size > MAX_COVER_BYTES) throw new Error('A cover is 1 byte to 10 MiB.');
      setState('Uploading the cover…');
      const item = { name, extension, size: file.size, md5: await md5Hex(file) };
      const signed = await api<SignedCover>('POST', `${props.base}/cover`, item);
      await putBlob(signed.file.url, file, item.md5, () => undefined, new AbortController().signal);
      await api('PUT', `${props.base}/cover`, { ...item, blobName: signed.file.blobName });
      setState('Cover uploaded.');
      props.onChange();
    }).then((ok) => ok || setState(''));

  return (
    <section aria-labelledby="cover-h" class="cover">
      <h2 id="cover-h" class="visually-hidden">
        Cover
      </h2>
      {image.data ? <img class="cover-image" src={image.data} alt={`Cover of ${project.name}`} /> : <p class="muted">No cover yet.</p>}
      <div class="row">
        <input
          ref={input}
          id="cover-file"
          type="file"
          accept="image/png,image/jpeg"
          class="visually-hidden"
          aria-label="Cover image (PNG or JPEG)"
          tabIndex={-1}
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            if (f) void upload(f);
            e.currentTarget.value = '';
          }}
        />
        <Action label={blob ? 'Replace the cover' : 'Upload a cover'} denied={denied} busy={busy} onClick={() => input.current?.click()} />
        <span class="muted" role="status">
          {state}
        </span>
      </div>
      <ErrorBox error={error ?? image.error} />
    </section>
  );
}
