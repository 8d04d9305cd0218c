// A tag list: its boxes in 3D (three.js, one instanced draw), a filterable table of its
// tags, and the picked tag's fields (click a box or a row), which the caller may edit.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { A2, api, uuidOf } from '../api.ts';
import type { FileItem, Project, Tag, TagList } from '../types.ts';
import { PREVIEW_EXTENSIONS, decodePoints, download } from '../three/point-cloud.ts';
import { Action, Empty, ErrorBox, Link, Loading, deniedUnless, useAction, useLoad } from '../ui.tsx';
import { BoxScene } from '../three/box-scene.ts';
import { NewTagForm } from './tag-create.tsx';
import { TagTable } from './tag-table.tsx';
import { zonePermissions } from '../permissions.ts';

/** Timings of the last load, shown on the page and read by `npm run bench:console`. */
export interface ViewTimings {
  fetchMs: number;
  firstRenderMs: number;
  /** From the document's start (after sign-in: the callback page's load) to the first frame. */
  sincePageStartMs: number;
  drawn: number;
}

declare global {
  // The scene and its timings, for the browser tests and the benchmark (docs/console.md).
  var __scanbaseBoxScene: { scene: BoxScene; tags: Tag[]; timings: ViewTimings } | undefined;
}

/** A scan's decimated points in the view: choose a LAS, LAZ or PLY scan of the project. */
function ScanPreview(props: { base: string; scene: BoxScene | null; onPoints: (n: number) => void }) {
  const scans = useLoad(() => api<FileItem[]>('GET', `${props.base}/files?category=scan,gaussian`), `${props.base} scans`);
  const [progress, setProgress] = useState<number | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<unknown>(null);
  const previewable = (scans.data ?? []).filter((f) => (PREVIEW_EXTENSIONS as readonly string[]).includes(f.extension.toLowerCase()));
  const show = async (id: string) => {
    const f = previewable.find((x) => x.id === id);
    if (!f || !props.scene) return;
    setError(null);
    setStatus('');
    try {
      setProgress(0);
      const { urls } = await api<{ urls: Record<string, string> }>('POST', `${props.base}/blobs`, [f.blobName]);
      const bytes = await download(urls[f.blobName]!, setProgress);
      setStatus('Decoding…');
      const preview = await decodePoints(bytes, f.extension);
      props.scene.setPoints(preview);
      props.onPoints(preview.count);
      setStatus(`${preview.count.toLocaleString('en')} points shown of ${preview.total.toLocaleString('en')}`);
    } catch (e) {
      setError(e);
    } finally {
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
      {progress !== null ? <progress max={1} value={progress} aria-label="Scan download" /> : null}
      <span class="muted" role="status">
        {status}
      </span>
      <ErrorBox error={error ?? scans.error} />
    </div>
  );
}

export function TagListScreen(props: { accountId: string; projectId: string; tagListId: string }) {
  const base = `${A2}/accounts/${props.accountId}/projects/${props.projectId}`;
  const listUrl = `${base}/tag-lists/${props.tagListId}`;
  const project = useLoad(() => api<Project>('GET', base), base);
  const list = useLoad(() => api<TagList>('GET', listUrl), listUrl);
  const [tags, setTags] = useState<Tag[] | null>(null);
  const [fetchMs, setFetchMs] = useState(0);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [n, reloadTags] = useState(0);
  const [picked, setPicked] = useState<number | null>(null);
  const [filter, setFilter] = useState('');
  const [cls, setCls] = useState('');
  const [timings, setTimings] = useState<ViewTimings | null>(null);
  const [points, setPoints] = useState(0);
  const canvas = useRef<HTMLCanvasElement>(null);
  const sceneRef = useRef<BoxScene | null>(null);

  useEffect(() => {
    let live = true;
    const t0 = performance.now();
    api<Tag[]>('GET', `${listUrl}/tags`).then(
      (t) => {
        if (!live) return;
        setFetchMs(performance.now() - t0);
        setTags(t);
      },
      (e: unknown) => live && setLoadError(e),
    );
    return () => {
      live = false;
    };
  }, [listUrl, n]);

  useEffect(() => {
    if (!canvas.current) return;
    const scene = new BoxScene(canvas.current);
    sceneRef.current = scene;
    return () => scene.dispose();
  }, []);

  useEffect(() => {
    const scene = sceneRef.current;
    if (!scene || !tags) return;
    const t0 = performance.now();
    const drawn = scene.setBoxes(tags.map((t) => t.data));
    scene.renderNow();
    // The first frame is on screen once the browser has painted it.
    requestAnimationFrame(() => {
      const t = { fetchMs, firstRenderMs: performance.now() - t0, sincePageStartMs: performance.now(), drawn };
      setTimings(t);
      globalThis.__scanbaseBoxScene = { scene, tags, timings: t };
    });
  }, [tags]);

  const classes = useMemo(() => [...new Set((tags ?? []).map((t) => t.data.class).filter((c): c is string => Boolean(c)))].sort(), [tags]);
  const q = filter.trim().toLowerCase();
  const matching = useMemo(
    () =>
      (tags ?? [])
        .map((t, i) => ({ t, i }))
        .filter(({ t }) => (!cls || t.data.class === cls) && (!q || t.data.id.toLowerCase().includes(q) || (t.data.name ?? '').toLowerCase().includes(q))),
    [tags, q, cls],
  );
  // A tag just created is picked once the list has come back with it.
  const pickAfterLoad = useRef<string | null>(null);
  useEffect(() => {
    const id = pickAfterLoad.current;
    if (!tags || !id) return;
    pickAfterLoad.current = null;
    const i = tags.findIndex((t) => t.data.id === id);
    if (i >= 0) setPicked(i);
  }, [tags]);
  const pickedTag = picked === null ? null : (tags?.[picked] ?? null);
  const perms = useLoad(
    () => (list.data ? zonePermissions(base, list.data.workzoneId) : Promise.resolve(undefined)),
    `${listUrl} ${list.data ? 'loaded' : ''}`,
  );
  const writeDenied = deniedUnless(perms.loading ? undefined : perms.data, 'workzone:tags:write');

  return (
    <main id="main" class="tag-list">
      <nav aria-label="Breadcrumb" class="crumbs">
        <Link href="/console/">Accounts</Link> / <Link href={`/console/a/${props.accountId}`}>Projects</Link> /{' '}
        <Link href={`/console/a/${props.accountId}/p/${props.projectId}?zone=${list.data ? uuidOf(list.data.workzoneId) : ''}&tab=tags`}>
          {project.data?.name ?? '…'}
        </Link>{' '}
        / <span aria-current="page">{list.data?.name ?? '…'}</span>
      </nav>
      <h1>{list.data?.name ?? 'Tag list'}</h1>
      <ErrorBox error={list.error ?? loadError} />
      <div class="split">
        <section aria-labelledby="view-h" class="view3d">
          <h2 id="view-h">3D view</h2>
          <div class="row">
            <button type="button" class="plain" onClick={() => sceneRef.current?.fitToView()}>
              Fit to view
            </button>
            {timings ? (
              <span class="muted" data-testid="timings">
                {timings.drawn} boxes; fetched in {Math.round(timings.fetchMs)} ms, first render in {Math.round(timings.firstRenderMs)} ms
              </span>
            ) : null}
          </div>
          <ScanPreview base={base} scene={sceneRef.current} onPoints={setPoints} />
          <canvas
            ref={canvas}
            class="scene"
            data-drawn={timings?.drawn ?? ''}
            data-points={points}
            aria-label="3D view of the tags' boxes: drag to orbit, wheel to zoom, click a box to see its fields"
            onClick={(e) => {
              const i = sceneRef.current?.pick(e.clientX, e.clientY) ?? null;
              if (i !== null) setPicked(i);
            }}
          />
          {!tags && !loadError ? <Loading what="tags" /> : null}
          {tags && tags.length === 0 ? <Empty>This list has no tag yet.</Empty> : null}
        </section>
        <section aria-labelledby="picked-h" class="picked">
          <h2 id="picked-h">Selected tag</h2>
          {pickedTag ? (
            <TagFields key={pickedTag.id} tag={pickedTag} listUrl={listUrl} denied={writeDenied} onSaved={() => reloadTags((x) => x + 1)}
              onDeleted={() => {
                setPicked(null);
                reloadTags((x) => x + 1);
              }}
            />
          ) : (
            <p class="muted">Click a box or a row of the table.</p>
          )}
          <h2 id="new-tag-h">New tag</h2>
          <NewTagForm
            listUrl={listUrl}
            denied={writeDenied}
            onCreated={(id) => {
              pickAfterLoad.current = id;
              reloadTags((x) => x + 1);
            }}
          />
        </section>
      </div>
      <section aria-labelledby="table-h">
        <h2 id="table-h">Tags</h2>
        <div class="row">
          <label for="tag-filter">Filter by id or name</label>
          <input id="tag-filter" type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
          <label for="tag-class">Class</label>
          <select id="tag-class" value={cls} onChange={(e) => setCls(e.currentTarget.value)}>
            <option value="">Any class</option>
            {classes.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          <span class="muted" role="status">
            {matching.length.toLocaleString('en')} of {(tags?.length ?? 0).toLocaleString('en')} tags
          </span>
        </div>
        <TagTable rows={matching} picked={picked} onPick={setPicked} />
      </section>
    </main>
  );
}

function TagFields(props: { tag: Tag; listUrl: string; denied: string | null; onSaved: () => void; onDeleted: () => void }) {
  const d = props.tag.data;
  const [name, setName] = useState(d.name ?? '');
  const [cls, setCls] = useState(d.class ?? '');
  const [run, busy, error] = useAction();
  const save = async (e: Event) => {
    e.preventDefault();
    const data = { ...d, name: name.trim() || undefined, class: cls.trim() || undefined };
    if (await run(() => api('POST', `${props.listUrl}/tags/bulk`, { update: [{ id: props.tag.id, data }] }))) props.onSaved();
  };
  return (
    <div data-testid="picked-tag">
      <dl class="fields">
        <dt>Id</dt>
        <dd>{d.id}</dd>
        <dt>Name</dt>
        <dd class="picked-name">{d.name ?? '—'}</dd>
        <dt>Class</dt>
        <dd>{d.class ?? '—'}</dd>
        {d.orientedBoundingBox ? (
          <>
            <dt>Oriented box</dt>
            <dd>{d.orientedBoundingBox.map((v) => +v.toFixed(3)).join(', ')}</dd>
          </>
        ) : null}
        {d.boundingBox ? (
          <>
            <dt>Bounding box</dt>
            <dd>{d.boundingBox.map((v) => +v.toFixed(3)).join(', ')}</dd>
          </>
        ) : null}
      </dl>
      <form class="grid-form" onSubmit={save} aria-label="Edit the tag">
        <label for="tag-name">Name</label>
        <input id="tag-name" value={name} maxLength={50} disabled={Boolean(props.denied)} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="tag-class-edit">Class</label>
        <input id="tag-class-edit" value={cls} maxLength={50} disabled={Boolean(props.denied)} onInput={(e) => setCls(e.currentTarget.value)} />
        <Action label="Save tag" type="submit" kind="primary" denied={props.denied} busy={busy} />
      </form>
      <Action
        label="Delete tag"
        kind="danger"
        denied={props.denied}
        busy={busy}
        onClick={() =>
          confirm(`Delete the tag ${d.id}?`) &&
          void run(() => api('POST', `${props.listUrl}/tags/bulk`, { delete: [props.tag.id] })).then((ok) => ok && props.onDeleted())
        }
      />
      <ErrorBox error={error} />
    </div>
  );
}
