// A zone's files, grouped by category (named as people name them): upload by drag and drop
// (or Choose files), and per file icon actions with accessible names: show a scan in the 3D
// view, download, transform, rename and delete (the last three in dialogs). Sizes and dates
// are short and never wrap; a click on a row selects the file (its card over the scene).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { apiPath } from '../paths.ts';
import type { FileItem } from '../types.ts';
import { Action, Dialog, Empty, ErrorBox, IconButton, LoadState, RenameDialog, deniedUnless, toast, useAction, useConfirm, type Loaded } from '../ui.tsx';
import { uploadFiles, type UploadProgress } from '../upload.ts';
import { CATEGORY_ORDER, categoryName, formatDate, formatFullDate, formatSize } from '../format.ts';
import { UploadList } from './upload-list.tsx';
import { TransformForm, transformDenied } from './file-transform.tsx';
import { viewable } from './scan-load.ts';
import { PointCloudState, isPointCloud } from './point-cloud-state.tsx';
import { same, type Ctx } from './project-context.ts';

/** Upload needs the write permission of the file's category; scans and documents are the common ones. */
const UPLOAD_PERMISSIONS = ['workzone:reality-data:write', 'workzone:documents:write'] as const;

export const fileLabel = (f: FileItem) => (f.extension ? `${f.name}.${f.extension}` : f.name);

export function FilesPanel(props: {
  ctx: Ctx;
  zoneId: string;
  files: Loaded<FileItem[]>;
  /** Scans drawn in the 3D view (file ids), and turning one on or off. */
  shown: ReadonlySet<string>;
  onShow: (f: FileItem, show: boolean) => void;
  selected: string | null;
  onSelect: (f: FileItem) => void;
}) {
  const { ctx, zoneId, files } = props;
  const [uploads, setUploads] = useState<UploadProgress[]>([]);
  const controllers = useRef<AbortController[]>([]);
  const [dragging, setDragging] = useState(false);
  const [run, busy, error] = useAction();
  const [ask, confirmDialog] = useConfirm();
  const input = useRef<HTMLInputElement>(null);
  const uploadDenied = deniedUnless(ctx.perms, ...UPLOAD_PERMISSIONS);
  const [transforming, setTransforming] = useState<FileItem | null>(null);
  const [renaming, setRenaming] = useState<FileItem | null>(null);
  const [newName, setNewName] = useState('');

  const dropped = useRef<File[]>([]);
  /** Files dropped before the caller's permissions were known: started (or refused) once they are. */
  const [waiting, setWaiting] = useState<File[] | null>(null);
  const start = async (list: File[]) => {
    if (!list.length) return;
    if (!ctx.perms) return setWaiting(list);
    // A drop is not a button that can be disabled: say why nothing is sent.
    if (uploadDenied) return void run(() => Promise.reject(new Error(`Nothing was uploaded: ${uploadDenied}.`)));
    dropped.current = list;
    controllers.current = list.map(() => new AbortController());
    await uploadFiles(
      String(apiPath`${ctx.base}/workzones/${zoneId}/bulk-files`), list, setUploads, controllers.current, 'POST',
      String(apiPath`${ctx.base}/workzones/${zoneId}/multipart-uploads`),
    );
    files.reload();
  };
  useEffect(() => {
    if (!waiting || !ctx.perms) return;
    setWaiting(null);
    void start(waiting);
  }, [waiting, ctx.perms]);
  const inZone = (files.data ?? []).filter((f) => same(f.workzoneId, zoneId));
  const byCategory = new Map<string, FileItem[]>();
  for (const c of CATEGORY_ORDER) byCategory.set(c, []);
  for (const f of inZone) byCategory.set(f.type, [...(byCategory.get(f.type) ?? []), f]);
  const fileUrl = (f: FileItem) => apiPath`${ctx.base}/files/${uuidOf(f.id)}`;

  const download = (f: FileItem) =>
    run(async () => {
      const { urls } = await api<{ urls: Record<string, string> }>('POST', apiPath`${ctx.base}/blobs`, [f.blobName]);
      const url = urls[f.blobName];
      if (url) window.open(url, '_blank', 'noopener');
    });
  const remove = async (f: FileItem) => {
    const ok = await ask({ title: 'Delete the file?', body: `${fileLabel(f)} will be deleted from this zone.`, action: 'Delete file' });
    if (ok && (await run(() => api('DELETE', fileUrl(f))))) {
      toast(`${fileLabel(f)} deleted`);
      files.reload();
    }
  };
  const rename = async (name: string) => {
    const f = renaming;
    if (!f) return;
    if (await run(() => api('PATCH', fileUrl(f), { name }))) {
      setRenaming(null);
      files.reload();
    }
  };
  return (
    <div class="files-panel">
      <div
        class={dragging ? 'drop dragging' : 'drop'}
        data-testid="drop-zone"
        aria-describedby={uploadDenied ? 'why-choose-files' : undefined}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          void start([...(e.dataTransfer?.files ?? [])]);
        }}
      >
        <p>Drop files here, or</p>
        <input ref={input} id="file-input" type="file" multiple class="visually-hidden" aria-label="Files to upload" tabIndex={-1} onChange={(e) => void start([...(e.currentTarget.files ?? [])])} />
        <Action label="Choose files" icon="upload" denied={uploadDenied} onClick={() => input.current?.click()} />
      </div>
      <UploadList uploads={uploads} controllers={controllers.current} onRetry={(i) => void start([dropped.current[i]!])} />
      <ErrorBox error={error} />
      <LoadState of={[files]} what="files" />
      {files.data && inZone.length === 0 ? <Empty icon="file">No file in this zone yet.</Empty> : null}
      {[...byCategory]
        .filter(([, list]) => list.length)
        .map(([category, list]) => (
          <section key={category} aria-label={`Files: ${categoryName(category)}`} class="file-group">
            <h3>
              {categoryName(category)} <span class="count">{list.length}</span>
            </h3>
            <table class="files">
              <thead class="visually-hidden">
                <tr>
                  <th scope="col">Name, size and date added</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.map((f) => (
                  <tr key={f.id} class={props.selected && same(props.selected, f.id) ? 'current' : undefined}>
                    <td class="file-name">
                      <button type="button" class="link" title={fileLabel(f)} onClick={() => props.onSelect(f)}>
                        {fileLabel(f)}
                      </button>
                      <span class="meta nowrap" title={formatFullDate(f.createdAt)}>
                        {formatSize(f.size)} · {formatDate(f.createdAt)}
                      </span>
                      {isPointCloud(f) ? <PointCloudState url={apiPath`${ctx.base}/files/${uuidOf(f.id)}/point-cloud`} /> : null}
                    </td>
                    <td class="row-actions">
                      {viewable(f) ? (
                        <IconButton
                          icon={props.shown.has(f.id) ? 'hide' : 'show'}
                          label={`${props.shown.has(f.id) ? 'Hide' : 'Show'} ${fileLabel(f)} in 3D`}
                          pressed={props.shown.has(f.id)}
                          onClick={() => props.onShow(f, !props.shown.has(f.id))}
                        />
                      ) : null}
                      <IconButton icon="download" label={`Download ${fileLabel(f)}`} disabled={busy} onClick={() => void download(f)} />
                      {transformDenied(f, ctx.perms) === null ? <IconButton icon="transform" label={`Transform ${fileLabel(f)}`} disabled={busy} onClick={() => setTransforming(f)} /> : null}
                      {uploadDenied ? null : (
                        <>
                          <IconButton
                            icon="rename"
                            label={`Rename ${fileLabel(f)}`}
                            disabled={busy}
                            onClick={() => {
                              setNewName(f.name);
                              setRenaming(f);
                            }}
                          />
                          <IconButton icon="remove" label={`Delete ${fileLabel(f)}`} danger disabled={busy} onClick={() => void remove(f)} />
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
      <Dialog open={transforming !== null} title={transforming ? `Transform ${fileLabel(transforming)}` : 'Transform'} onClose={() => setTransforming(null)}>
        {transforming ? (
          <TransformForm
            file={transforming}
            base={ctx.base}
            onCancel={() => setTransforming(null)}
            onDone={() => {
              setTransforming(null);
              toast('Transformation saved');
              files.reload();
            }}
          />
        ) : null}
      </Dialog>
      <RenameDialog
        open={renaming !== null}
        title={renaming ? `Rename ${fileLabel(renaming)}` : 'Rename'}
        label="New file name (without its extension)"
        id="rename-file"
        value={newName}
        onInput={setNewName}
        onSave={(name) => void rename(name)}
        onClose={() => setRenaming(null)}
        busy={busy}
      />
      {confirmDialog}
    </div>
  );
}
