// A tag list: its boxes in the 3D view (the centre of the screen, full height), the
// windowed table of its tags (left), and the selected tag's fields, a new tag and the
// list's metadata definitions (right side panel). Selecting a row marks the box, clicking a
// box selects the row; either way nothing on the page moves.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { apiPath } from '../paths.ts';
import type { Project, Tag, TagList } from '../types.ts';
import { ScanPreview } from './scan-preview.tsx';
import { Breadcrumbs, Empty, ErrorBox, Loading, deniedUnless, useLoad } from '../ui.tsx';
import { TagBoxLayer } from '../three/layers/tag-boxes.ts';
import type { ZoneView } from '../three/view.ts';
import { NewTagForm } from './tag-create.tsx';
import { TagTable } from './tag-table.tsx';
import { TagFields } from './tag-edit.tsx';
import { MetadataDefinitions } from './tag-metadata.tsx';
import { zonePermissions } from '../permissions.ts';
import { ScenePanel } from './scene-panel.tsx';

/** Timings of the last load, read by `npm run bench:console`. */
export interface ViewTimings {
  fetchMs: number;
  firstRenderMs: number;
  /** From the document's start (after sign-in: the callback page's load) to the first frame. */
  sincePageStartMs: number;
  drawn: number;
}

declare global {
  // The view, the list's layer, the tags and the timings, for the browser tests and the benchmark (docs/console.md).
  var __scanbaseBoxScene: { scene: ZoneView; layer: TagBoxLayer; tags: Tag[]; timings: ViewTimings } | undefined;
}

export function TagListScreen(props: { accountId: string; projectId: string; tagListId: string; tagId: string | null }) {
  const base = apiPath`/api/2/accounts/${props.accountId}/projects/${props.projectId}`;
  const listUrl = apiPath`${base}/tag-lists/${props.tagListId}`;
  const project = useLoad(() => api<Project>('GET', base), String(base));
  const list = useLoad(() => api<TagList>('GET', listUrl), String(listUrl));
  const [tags, setTags] = useState<Tag[] | null>(null);
  const [fetchMs, setFetchMs] = useState(0);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [n, reloadTags] = useState(0);
  const [picked, setPicked] = useState<number | null>(null);
  const [filter, setFilter] = useState('');
  const [cls, setCls] = useState('');
  const [drawn, setDrawn] = useState(0);
  const [points, setPoints] = useState(0);
  const [view, setView] = useState<ZoneView | null>(null);
  const layer = useRef<TagBoxLayer | null>(null);

  useEffect(() => {
    let live = true;
    setLoadError(null);
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
  }, [String(listUrl), n]);

  useEffect(() => {
    if (!view) return;
    const l = new TagBoxLayer(`tags:${props.tagListId}`, 'Tags', list.data?.color ?? null);
    layer.current = l;
    view.add(l);
    return () => view.remove(l.id);
  }, [view]);
  useEffect(() => layer.current?.setColour(list.data?.color ?? null), [list.data?.color]);

  useEffect(() => {
    const l = layer.current;
    if (!view || !l || !tags) return;
    const t0 = performance.now();
    const count = l.setTags(tags.map((t) => t.data));
    view.renderNow();
    // The first frame is on screen once the browser has painted it.
    requestAnimationFrame(() => {
      const t = { fetchMs, firstRenderMs: performance.now() - t0, sincePageStartMs: performance.now(), drawn: count };
      setDrawn(count);
      globalThis.__scanbaseBoxScene = { scene: view, layer: l, tags, timings: t };
    });
  }, [tags, view]);

  // The selection, in the table and in the scene, in the same commit (a layout effect).
  useLayoutEffect(() => {
    view?.select(picked === null ? null : { layerId: `tags:${props.tagListId}`, key: String(picked) });
  }, [picked, view, drawn]);

  const classes = useMemo(() => [...new Set((tags ?? []).map((t) => t.data.class).filter((c): c is string => Boolean(c)))].sort(), [tags]);
  const q = filter.trim().toLowerCase();
  const matching = useMemo(
    () =>
      (tags ?? [])
        .map((t, i) => ({ t, i }))
        .filter(({ t }) => (!cls || t.data.class === cls) && (!q || t.data.id.toLowerCase().includes(q) || (t.data.name ?? '').toLowerCase().includes(q))),
    [tags, q, cls],
  );
  // A tag named in the address (`?tag=`), or just created, is picked once the list has come back with it.
  const pickAfterLoad = useRef<string | null>(props.tagId);
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
  const zoneHref = `/console/a/${props.accountId}/p/${props.projectId}${list.data ? `?zone=${uuidOf(list.data.workzoneId)}&tab=tags` : ''}`;
  const failed = list.error ?? loadError;

  return (
    <main id="main" class="workspace tag-list">
      <div class="workspace-head">
        <Breadcrumbs
          accountId={props.accountId}
          trail={[{ label: project.data?.name ?? 'Project', href: zoneHref }, { label: list.data?.name ?? 'Tag list' }]}
        />
        <h1>{list.data?.name ?? 'Tag list'}</h1>
      </div>
      <div class="workspace-body">
        <section aria-labelledby="table-h" class="side left" tabIndex={0}>
          <h2 id="table-h">Tags</h2>
          <div class="filters">
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
            <span class="muted nowrap" role="status">
              {matching.length.toLocaleString('en')} of {(tags?.length ?? 0).toLocaleString('en')} tags
            </span>
          </div>
          {failed ? (
            <ErrorBox
              error={failed}
              onRetry={() => {
                list.reload();
                reloadTags((x) => x + 1);
              }}
            />
          ) : !tags ? (
            <Loading what="tags" />
          ) : tags.length === 0 ? (
            <Empty icon="tags">This list has no tag yet. Create one on the right.</Empty>
          ) : (
            <TagTable rows={matching} picked={picked} onPick={setPicked} />
          )}
        </section>
        <section aria-labelledby="view-h" class="centre">
          <h2 id="view-h" class="visually-hidden">
            3D view
          </h2>
          <ScenePanel
            onView={setView}
            onPick={(hit) => setPicked(hit ? Number(hit.key) : null)}
            drawn={drawn}
            points={points}
            label="3D view of the tags' boxes"
          >
            <div class="scene-footer">
              <ScanPreview base={base} view={view} onPoints={setPoints} />
            </div>
          </ScenePanel>
        </section>
        <aside aria-labelledby="picked-h" class="side right" tabIndex={0}>
          <section class="panel-section" data-testid="picked-tag-panel">
            <h2 id="picked-h">Selected tag</h2>
            {pickedTag ? (
              <TagFields
                key={`${pickedTag.id} ${pickedTag.tagsVersion} ${list.data?.updatedAt ?? ''}`}
                tag={pickedTag}
                definitions={list.data?.metadataDefinition ?? []}
                listUrl={String(listUrl)}
                denied={writeDenied}
                onSaved={() => reloadTags((x) => x + 1)}
                onDeleted={() => {
                  setPicked(null);
                  reloadTags((x) => x + 1);
                }}
              />
            ) : (
              <p class="muted">Click a box or a row of the table.</p>
            )}
          </section>
          <section class="panel-section">
            <h2 id="new-tag-h">New tag</h2>
            <NewTagForm
              listUrl={String(listUrl)}
              denied={writeDenied}
              onCreated={(id) => {
                pickAfterLoad.current = id;
                reloadTags((x) => x + 1);
              }}
            />
          </section>
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
        </aside>
      </div>
    </main>
  );
}
