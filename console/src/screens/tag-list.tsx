// A tag list: its boxes in 3D (three.js, one instanced draw), a filterable table of its
// tags, and the picked tag's fields (click a box or a row), which the caller may edit.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { A2, api, uuidOf } from '../api.ts';
import type { Project, Tag, TagList } from '../types.ts';
import { ScanPreview } from './scan-preview.tsx';
import { Empty, ErrorBox, Link, Loading, deniedUnless, useLoad } from '../ui.tsx';
import { BoxScene } from '../three/box-scene.ts';
import { NewTagForm } from './tag-create.tsx';
import { TagTable } from './tag-table.tsx';
import { TagFields } from './tag-edit.tsx';
import { MetadataDefinitions } from './tag-metadata.tsx';
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
            <TagFields key={`${pickedTag.id} ${pickedTag.tagsVersion} ${list.data?.updatedAt ?? ''}`} tag={pickedTag} definitions={list.data?.metadataDefinition ?? []} listUrl={listUrl} denied={writeDenied} onSaved={() => reloadTags((x) => x + 1)}
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
      {list.data ? (
        <MetadataDefinitions
          key={list.data.updatedAt}
          list={list.data}
          accountId={props.accountId}
          projectId={props.projectId}
          denied={writeDenied}
          onSaved={() => {
            list.reload();
            reloadTags((x) => x + 1);
          }}
        />
      ) : null}
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
