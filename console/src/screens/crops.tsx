// Crops of a work zone (docs/files.md "Project cover and crops"): list, create, rename,
// delete. The service keeps the viewer's strings (`crop`, `actualCrop`, `rotation`,
// `cameraState`) as given; the console writes an axis-aligned box as the JSON array of its
// six numbers (min X, Y, Z, max X, Y, Z) in `crop` and `actualCrop`, no rotation
// (`[0,0,0,1]`), and shows a box it can read that way (docs/console.md).
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { apiPath, type ApiPath } from '../paths.ts';
import type { Crop, FileItem } from '../types.ts';
import { Action, Empty, ErrorBox, Head, deniedUnless, useAction, useLoad, LoadState } from '../ui.tsx';

const BOX_FIELDS = ['Min X', 'Min Y', 'Min Z', 'Max X', 'Max Y', 'Max Z'] as const;
const NO_ROTATION = '[0,0,0,1]';

const same = (a: string, b: string) => uuidOf(a) === uuidOf(b);

/** The six numbers of a crop the console wrote, or null for another encoding. */
function boxOf(crop: string): number[] | null {
  try {
    const v: unknown = JSON.parse(crop);
    return Array.isArray(v) && v.length === 6 && v.every((n) => typeof n === 'number') ? (v as number[]) : null;
  } catch {
    return null; // the viewer's own encoding: shown as "—"
  }
}

/** The six numbers of the form, or the reason they are not a box. */
export function cropBoxOf(values: string[]): number[] | string {
  const n = values.map((v) => (v.trim() === '' ? NaN : Number(v)));
  const bad = n.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) return `${BOX_FIELDS[bad]} must be a number.`;
  for (let a = 0; a < 3; a++) if (n[a]! > n[a + 3]!) return `${BOX_FIELDS[a]} must not exceed ${BOX_FIELDS[a + 3]}.`;
  return n;
}

/** A crop's fields as PUT wants them (it overwrites: every field is sent back). */
const writable = (c: Crop) => ({
  workzoneId: c.workzoneId, name: c.name, crop: c.crop, actualCrop: c.actualCrop, rotation: c.rotation, layers: c.layers,
  cameraType: c.cameraType, cameraState: c.cameraState, scan: c.scan, thumbnailBlobName: c.thumbnailBlobName, oview: c.oview, settings: c.settings,
});

export function CropsPanel(props: { base: ApiPath; zoneId: string; perms: ReadonlySet<string> | undefined }) {
  const { base, zoneId } = props;
  const readDenied = deniedUnless(props.perms, 'workzone:crops:read', 'workzone:reality-data:read');
  const writeDenied = deniedUnless(props.perms, 'workzone:crops:write');
  const crops = useLoad(
    () => (readDenied ? Promise.resolve([] as Crop[]) : api<Crop[]>('GET', `${apiPath`${base}/crops`}?${new URLSearchParams({ workzones: zoneId })}`)),
    `${base} crops ${zoneId} ${readDenied ?? ''}`,
  );
  const scans = useLoad(() => api<FileItem[]>('GET', `${base}/files?category=scan`), `${base} crop scans`);
  const zoneScans = (scans.data ?? []).filter((f) => same(f.workzoneId, zoneId));
  const [name, setName] = useState('');
  const [scan, setScan] = useState('');
  const [box, setBox] = useState<string[]>(['0', '0', '0', '1', '1', '1']);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  const [run, busy, error] = useAction();
  const scanName = (id: string) => {
    const f = (scans.data ?? []).find((x) => same(x.id, id));
    return f ? `${f.name}.${f.extension}` : id;
  };

  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      if (!name.trim()) throw new Error('The crop needs a name.');
      const chosen = scan || zoneScans[0]?.id;
      if (!chosen) throw new Error('A crop is made on a scan: upload one into this zone first.');
      const numbers = cropBoxOf(box);
      if (typeof numbers === 'string') throw new Error(numbers);
      const text = JSON.stringify(numbers);
      await api('POST', `${base}/crops`, {
        workzoneId: zoneId, name: name.trim(), crop: text, actualCrop: text, rotation: NO_ROTATION, cameraType: 'perspective', cameraState: '{}', scan: chosen,
      });
      setName('');
      crops.reload();
    });
  };
  const rename = (e: Event, c: Crop) => {
    e.preventDefault();
    if (!newName.trim()) return;
    void run(() => api('PUT', apiPath`${base}/crops/${uuidOf(c.id)}`, { ...writable(c), name: newName.trim() })).then((ok) => {
      if (!ok) return;
      setRenaming(null);
      crops.reload();
    });
  };
  if (readDenied && props.perms) return <p class="muted">{readDenied} to see this zone's crops.</p>;
  return (
    <div>
      <form class="grid-form" onSubmit={create} aria-label="New crop">
        <label for="crop-name">Crop name</label>
        <input id="crop-name" value={name} maxLength={255} disabled={Boolean(writeDenied)} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="crop-scan">Scan</label>
        <select id="crop-scan" value={scan} disabled={Boolean(writeDenied) || !zoneScans.length} onChange={(e) => setScan(e.currentTarget.value)}>
          {zoneScans.length ? null : <option value="">No scan in this zone</option>}
          {zoneScans.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}.{f.extension}
            </option>
          ))}
        </select>
        {BOX_FIELDS.map((label, i) => (
          <Fragment key={label}>
            <label for={`crop-box-${i}`}>{label}</label>
            <input
              id={`crop-box-${i}`}
              type="number"
              step="any"
              value={box[i]}
              disabled={Boolean(writeDenied)}
              onInput={(e) => {
                const v = e.currentTarget.value;
                setBox((old) => old.map((x, j) => (j === i ? v : x)));
              }}
            />
          </Fragment>
        ))}
        <Action label="Create crop" type="submit" kind="primary" denied={writeDenied} busy={busy} />
      </form>
      <ErrorBox error={error} />
      <LoadState of={[crops, scans]} what="crops" />
      {crops.data && crops.data.length === 0 ? <Empty>No crop in this zone yet.</Empty> : null}
      {crops.data?.length ? (
        <table class="crops">
          <Head cols={['Name', 'Scan', 'Box', 'Created', 'Actions']} />
          <tbody>
            {crops.data.map((c) => (
              <tr key={c.id}>
                <td>
                  {renaming === c.id ? (
                    <form class="row" onSubmit={(e) => rename(e, c)}>
                      <label for={`crop-rename-${c.id}`}>New name of {c.name}</label>
                      <input id={`crop-rename-${c.id}`} value={newName} maxLength={255} onInput={(e) => setNewName(e.currentTarget.value)} />
                      <Action label={`Save the name of ${c.name}`} type="submit" kind="primary" busy={busy} />
                    </form>
                  ) : (
                    c.name
                  )}
                </td>
                <td>{scanName(c.scan)}</td>
                <td>{boxOf(c.crop)?.join(', ') ?? '—'}</td>
                <td>{new Date(c.createdAt).toLocaleString()}</td>
                <td>
                  {writeDenied ? null : (
                    <>
                      <button
                        type="button"
                        class="plain"
                        disabled={busy}
                        onClick={() => {
                          setNewName(c.name);
                          setRenaming(renaming === c.id ? null : c.id);
                        }}
                      >
                        Rename {c.name}
                      </button>
                      <button
                        type="button"
                        class="danger"
                        disabled={busy}
                        onClick={() => confirm(`Delete the crop ${c.name}?`) && void run(() => api('DELETE', apiPath`${base}/crops/${uuidOf(c.id)}`)).then((ok) => ok && crops.reload())}
                      >
                        Delete {c.name}
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
