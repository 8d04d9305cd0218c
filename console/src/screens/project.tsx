// A project's work zone, with the 3D view at its centre (docs/console.md "The zone's
// screen"): the view fills the screen between the side panel and the window's edges and
// holds the zone's tag lists (each a layer in its list's colour) and its scans (streamed
// points); the side panel holds the zone tree and the zone's files, tag lists, members,
// crops, connect jobs and copy; the selection (a tag picked in the scene or in the list,
// a file, an annotation's pin) is marked in both and described on a card over the scene.
// The zone's annotations are pins and its measurements lines in the view; the toolbar's
// measuring tool makes new measurements from clicks in the scene.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { apiPath } from '../paths.ts';
import type { Annotation, FileItem, Project, Tag, TagList, Workzone } from '../types.ts';
import { navigate } from '../router.ts';
import { zonePermissions } from '../permissions.ts';
import { Breadcrumbs, Dialog, ErrorBox, IconButton, LoadState, useLoad } from '../ui.tsx';
import { formatAgo } from '../format.ts';
import { ConnectPanel } from './connect.tsx';
import { CopyPanel } from './zone-copy.tsx';
import { CropsPanel } from './crops.tsx';
import { AnnotationsPanel, MeasurementsPanel, loadAnnotations, loadMeasurements } from './annotations.tsx';
import { MeasureTool } from './measure-tool.tsx';
import { ProjectCover } from './project-cover.tsx';
import { ShareZoneButton } from './share-zone.tsx';
import { ZoneTree } from './zone-tree.tsx';
import { FilesPanel } from './files-panel.tsx';
import { MembersPanel } from './members-panel.tsx';
import { TagListsPanel } from './tag-lists-panel.tsx';
import { SelectionCard } from './selection-card.tsx';
import { ScenePanel } from './scene-panel.tsx';
import { poseOf, showScan, type ScanReading } from './scan-load.ts';
import { MEASUREMENT_COLOUR, MEASUREMENTS_LAYER, PINS_LAYER, same, scanLayerId, tagLayerId, type Ctx, type ZoneSelection } from './project-context.ts';
import type { ZoneView } from '../three/view.ts';
import { TagBoxLayer } from '../three/layers/tag-boxes.ts';
import { PinLayer } from '../three/layers/pins.ts';
import { MeasureLinesLayer } from '../three/layers/measure-lines.ts';
import type { Vector3 } from 'three';

/** The saved measurements' colour in the view (the tool's measurement in progress is orange). */

/** What a pin's hover label says. */
const pinLabel = (a: Annotation) => `#${a.number ?? '—'} ${a.title ?? a.descriptionText} (${a.annotationType})`;

const TABS = [
  ['files', 'Files'],
  ['tags', 'Tag lists'],
  ['members', 'Members'],
  ['crops', 'Crops'],
  ['annotations', 'Annotations'],
  ['measurements', 'Measurements'],
  ['connect', 'Connect'],
  ['copy', 'Copy'],
] as const;

/** Scans of a zone drawn when it opens (LAS and E57, streamed and bounded: docs/console.md). */
const SCANS_SHOWN_AT_OPEN = 3;

/** A copy of `set` with `id` in it (`on`) or not. */
function toggled(set: ReadonlySet<string>, id: string, on: boolean): Set<string> {
  const next = new Set(set);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

declare global {
  // The zone's view, for the browser tests (docs/console.md "Tests").
  var __scanbaseZoneView: ZoneView | undefined;
}

export function ProjectScreen(props: { accountId: string; projectId: string; zoneId: string | null; tab: string }) {
  const base = apiPath`/api/2/accounts/${props.accountId}/projects/${props.projectId}`;
  const project = useLoad(() => api<Project>('GET', base), String(base));
  const zones = useLoad(() => api<Workzone[]>('GET', apiPath`${base}/workzones`), `${base} zones`);
  const here = `/console/a/${props.accountId}/p/${props.projectId}`;
  const zoneRef = props.zoneId ?? project.data?.rootWorkzoneId ?? null;
  const zoneId = zoneRef ? uuidOf(zoneRef) : null;
  const zone = zones.data?.find((z) => same(z.id, zoneId));
  const perms = useLoad(
    () => (project.data && zoneId ? zonePermissions(base, zoneId) : Promise.resolve(new Set<string>())),
    `${base} ${zoneId} ${project.data ? 'loaded' : ''}`,
  );
  const files = useLoad(() => api<FileItem[]>('GET', apiPath`${base}/files`), `${base} files`);
  const lists = useLoad(() => api<TagList[]>('GET', apiPath`${base}/tag-lists`), `${base} tag lists`);
  const [tags, setTags] = useState<Map<string, Tag[] | Error>>(new Map());
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [shown, setShown] = useState<Set<string>>(new Set());
  const [readings, setReadings] = useState<Map<string, ScanReading>>(new Map());
  const [selection, setSelection] = useState<ZoneSelection | null>(null);
  const [view, setView] = useState<ZoneView | null>(null);
  const [details, setDetails] = useState(false);
  const [measuring, setMeasuring] = useState(false);
  const [placing, setPlacing] = useState<((local: Vector3) => void) | null>(null);
  const permsNow = perms.loading ? undefined : perms.data;
  const permKey = permsNow ? [...permsNow].sort().join(',') : 'loading';
  const annotations = useLoad(() => loadAnnotations(base, permsNow), `${base} annotations ${permKey}`);
  const measurements = useLoad(() => loadMeasurements(base, permsNow), `${base} measurements ${permKey}`);
  const loads = useRef(new Map<string, AbortController>());
  const opened = useRef<string | null>(null);

  const go = (q: { zone?: string; tab?: string }) =>
    navigate(`${here}?${new URLSearchParams({ zone: uuidOf(q.zone ?? zoneId ?? ''), tab: q.tab ?? props.tab })}`);

  // A panel opened again shows what is there now (other people and clients change it too).
  const firstTab = useRef(true);
  useEffect(() => {
    if (firstTab.current) {
      firstTab.current = false;
      return;
    }
    if (props.tab === 'tags') lists.reload();
    if (props.tab === 'files') files.reload();
  }, [props.tab]);

  const zoneLists = (lists.data ?? []).filter((l) => same(l.workzoneId, zoneId));
  const zoneFiles = (files.data ?? []).filter((f) => same(f.workzoneId, zoneId));
  const listKey = zoneLists.map((l) => `${l.id}@${l.tagsVersion}`).join(',');

  // The zone's tags, per list (a list's tags are re-read when its version changes).
  useEffect(() => {
    let live = true;
    for (const l of zoneLists) {
      api<Tag[]>('GET', apiPath`${base}/tag-lists/${uuidOf(l.id)}/tags`).then(
        (t) => live && setTags((m) => new Map(m).set(uuidOf(l.id), t)),
        (e: unknown) => live && setTags((m) => new Map(m).set(uuidOf(l.id), e instanceof Error ? e : new Error(String(e)))),
      );
    }
    return () => {
      live = false;
    };
  }, [listKey]);

  // A new zone: nothing selected, its scans and lists only.
  useEffect(() => {
    setSelection(null);
    setMeasuring(false);
    setShown(new Set());
    opened.current = null;
  }, [zoneId]);

  // The scans drawn when the zone opens: its first LAS scans (streamed by ranges, bounded)
  // and E57s (drawn once converted to COPC, which streams by level of detail).
  useEffect(() => {
    if (!files.data || !zoneId || opened.current === zoneId) return;
    opened.current = zoneId;
    const las = zoneFiles.filter((f) => ['las', 'e57'].includes(f.extension.toLowerCase())).slice(0, SCANS_SHOWN_AT_OPEN);
    if (las.length) setShown(new Set(las.map((f) => f.id)));
  }, [files.data, zoneId]);

  // The view's layers follow the zone's lists and their tags…
  useEffect(() => {
    if (!view) return;
    const wanted = new Set(zoneLists.map((l) => tagLayerId(l.id)));
    for (const l of zoneLists) {
      const t = tags.get(uuidOf(l.id));
      const id = tagLayerId(l.id);
      let layer = view.layer<TagBoxLayer>(id);
      if (!layer) {
        layer = new TagBoxLayer(id, l.name, l.color ?? null);
        view.add(layer);
      } else layer.setColour(l.color ?? null);
      if (Array.isArray(t)) layer.setTags(t.map((x) => x.data));
      view.setVisible(id, !hidden.has(uuidOf(l.id)));
    }
    for (const id of view.layerIds()) if (id.startsWith('tags:') && !wanted.has(id)) view.remove(id);
    globalThis.__scanbaseZoneView = view;
  }, [view, listKey, tags, hidden]);

  // …and the scans shown (each read once into its layer; hiding one cancels its reading).
  useEffect(() => {
    if (!view) return;
    for (const f of zoneFiles) {
      const id = scanLayerId(f.id);
      // A scan shown follows its file's pose (moved with "Transform…", read again with the files).
      if (shown.has(f.id)) view.layer(id)?.setPose?.(poseOf(f));
      if (shown.has(f.id) && !view.layer(id)) {
        const ctl = new AbortController();
        loads.current.set(f.id, ctl);
        showScan(view, base, f, id, (r) => setReadings((m) => new Map(m).set(f.id, r)), ctl.signal).catch((e: unknown) =>
          setReadings((m) => new Map(m).set(f.id, { bytes: 0, size: f.size, points: 0, streamed: false, done: false, fraction: null, status: e instanceof Error ? e.message : String(e) })),
        );
      }
    }
    for (const id of view.layerIds()) {
      if (!id.startsWith('scan:')) continue;
      const f = zoneFiles.find((x) => scanLayerId(x.id) === id);
      if (!f || !shown.has(f.id)) {
        if (f) loads.current.get(f.id)?.abort();
        view.remove(id);
      }
    }
  }, [view, shown, files.data, zoneId]);
  useEffect(() => () => loads.current.forEach((c) => c.abort()), []);

  // The zone's annotations as pins, its measurements as lines.
  const zoneAnnotations = (annotations.data ?? []).filter((a) => same(a.workzoneId, zoneId));
  const zoneMeasurements = (measurements.data ?? []).filter((m) => same(m.workzoneId, zoneId));
  useEffect(() => {
    if (!view) return;
    let pins = view.layer<PinLayer>(PINS_LAYER);
    if (!pins) {
      pins = new PinLayer(PINS_LAYER, 'Annotations');
      view.add(pins);
    }
    pins.setPins(zoneAnnotations.flatMap((a) => (a.position ? [{ key: uuidOf(a.id), label: pinLabel(a), type: a.annotationType, position: a.position }] : [])));
    let lines = view.layer<MeasureLinesLayer>(MEASUREMENTS_LAYER);
    if (!lines) {
      lines = new MeasureLinesLayer(MEASUREMENTS_LAYER, 'Measurements', MEASUREMENT_COLOUR);
      view.add(lines);
    }
    lines.setMeasurements(zoneMeasurements.map((m) => ({ kind: m.kind, points: m.points, key: uuidOf(m.id), label: `${m.name} (${m.kind})` })));
  }, [view, annotations.data, measurements.data, zoneId]);

  // "Place in 3D": the next click in the view is the new annotation's position. Taken before
  // the page paints the button's "Click a point…" (a layout effect): a click made as soon as it
  // shows must not go to picking (a plain effect may run after that click on a busy machine).
  useLayoutEffect(() => {
    if (!view || !placing) return;
    view.setPointHandler(placing);
    return () => view.releasePointHandler(placing);
  }, [view, placing]);

  // One selection for the scene and the panels, marked in the scene in the same commit as the
  // panels (a layout effect): what the page paints as selected is what the view has selected.
  useLayoutEffect(() => {
    if (!view) return;
    view.select(
      selection?.kind === 'tag'
        ? { layerId: tagLayerId(selection.listId), key: String(selection.index) }
        : selection?.kind === 'annotation'
          ? { layerId: PINS_LAYER, key: uuidOf(selection.id) }
          : selection?.kind === 'measurement'
            ? { layerId: MEASUREMENTS_LAYER, key: uuidOf(selection.id) }
            : null,
    );
  }, [view, selection, tags, annotations.data, measurements.data]);

  const drawn = zoneLists.reduce((n, l) => {
    const t = tags.get(uuidOf(l.id));
    return n + (Array.isArray(t) ? t.length : 0);
  }, 0);
  const points = [...readings].filter(([id]) => shown.has(id)).reduce((n, [, r]) => n + r.points, 0);
  const reading = [...readings].filter(([id]) => shown.has(id)).map(([, r]) => r).find((r) => r.fraction !== null);

  const projectName = project.data?.name ?? 'Project';
  const crumbs = <Breadcrumbs accountId={props.accountId} trail={[{ label: projectName, href: here }, ...(zone ? [{ label: zone.name }] : [])]} />;
  if (!project.data) {
    return (
      <main id="main" class="page">
        {crumbs}
        <h1>Project</h1>
        <LoadState of={[project]} what="the project" />
      </main>
    );
  }
  const ctx: Ctx = { accountId: props.accountId, project: project.data, base, perms: perms.loading ? undefined : perms.data };
  const stats = project.data.statsInfo;
  return (
    <main id="main" class="workspace project">
      <div class="workspace-head">
        {crumbs}
        <div class="title-row">
          <h1>{project.data.name}</h1>
          <span class="muted nowrap">
            {stats.scanCount ?? 0} scans · {stats.tagCount ?? 0} tags · updated {formatAgo(project.data.modificationInfo.updatedAt)}
          </span>
          <IconButton icon="info" label="Project details" onClick={() => setDetails(true)} />
        </div>
      </div>
      <div class="workspace-body">
        <aside class="side left" aria-label="Zone panels" tabIndex={0}>
          <LoadState of={[zones]} what="work zones" />
          {zones.data ? <ZoneTree ctx={ctx} zones={zones.data} selected={zoneId} onSelect={(id) => go({ zone: uuidOf(id) })} onChange={zones.reload} /> : null}
          <h2 id="zone-h" class="zone-heading">
            {zone ? zone.name : 'Work zone'}
          </h2>
          {zone && zoneId ? <ShareZoneButton key={zoneId} base={base} zoneId={zoneId} zoneName={zone.name} /> : null}
          <ErrorBox error={perms.error} onRetry={perms.reload} />
          <div role="tablist" aria-label="Zone views" class="tabs">
            {TABS.map(([id, label]) => (
              <button
                key={id}
                type="button"
                role="tab"
                id={`tab-${id}`}
                aria-selected={props.tab === id}
                aria-controls={`panel-${id}`}
                tabIndex={props.tab === id ? 0 : -1}
                onClick={() => go({ tab: id })}
                onKeyDown={(e) => {
                  const i = TABS.findIndex(([t]) => t === props.tab);
                  const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
                  if (d) go({ tab: TABS[(i + d + TABS.length) % TABS.length]![0] });
                }}
              >
                {label}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`panel-${props.tab}`} aria-labelledby={`tab-${props.tab}`} class="tab-panel">
            {zoneId ? (
              props.tab === 'members' ? (
                <MembersPanel ctx={ctx} zoneId={zoneId} zones={zones.data ?? []} />
              ) : props.tab === 'tags' ? (
                <TagListsPanel
                  ctx={ctx}
                  zoneId={zoneId}
                  lists={lists}
                  tags={tags}
                  hidden={hidden}
                  onToggle={(id, visible) => setHidden((h) => toggled(h, id, !visible))}
                  selection={selection}
                  onSelect={setSelection}
                />
              ) : props.tab === 'crops' ? (
                <CropsPanel base={base} zoneId={zoneId} perms={ctx.perms} />
              ) : props.tab === 'annotations' ? (
                <AnnotationsPanel
                  base={base}
                  zoneId={zoneId}
                  perms={ctx.perms}
                  projectPerms={project.data.permissions}
                  all={annotations}
                  selected={selection?.kind === 'annotation' ? selection.id : null}
                  onSelect={(id) => setSelection({ kind: 'annotation', id })}
                  placing={placing !== null}
                  onPlace={(set) => {
                    if (!view || placing) {
                      setPlacing(null);
                      return;
                    }
                    setMeasuring(false);
                    // A function in state is stored by a setter's callback form.
                    setPlacing(() => (local: Vector3) => {
                      set(view.toProject(local));
                      setPlacing(null);
                    });
                  }}
                />
              ) : props.tab === 'measurements' ? (
                <MeasurementsPanel
                  base={base}
                  zoneId={zoneId}
                  perms={ctx.perms}
                  all={measurements}
                  selected={selection?.kind === 'measurement' ? selection.id : null}
                  onSelect={(id) => setSelection({ kind: 'measurement', id })}
                />
              ) : props.tab === 'copy' ? (
                zone ? (
                  <CopyPanel accountId={props.accountId} project={project.data} base={base} zone={zone} zones={zones.data ?? []} perms={ctx.perms} onCopied={zones.reload} />
                ) : null
              ) : props.tab === 'connect' ? (
                <ConnectPanel accountId={props.accountId} projectId={props.projectId} zoneId={zoneId} perms={ctx.perms} />
              ) : (
                <FilesPanel
                  ctx={ctx}
                  zoneId={zoneId}
                  files={files}
                  shown={shown}
                  onShow={(f, show) => setShown((s) => toggled(s, f.id, show))}
                  selected={selection?.kind === 'file' ? selection.fileId : null}
                  onSelect={(f) => setSelection({ kind: 'file', fileId: f.id })}
                />
              )
            ) : null}
          </div>
        </aside>
        <section class="centre" aria-labelledby="view-h">
          <h2 id="view-h" class="visually-hidden">
            3D view
          </h2>
          <ScenePanel
            onView={setView}
            onPick={(hit) =>
              setSelection(
                hit?.layerId === PINS_LAYER
                  ? { kind: 'annotation', id: hit.key }
                  : hit?.layerId === MEASUREMENTS_LAYER
                    ? { kind: 'measurement', id: hit.key }
                  : hit && hit.layerId.startsWith('tags:')
                    ? { kind: 'tag', listId: hit.layerId.slice(5), index: Number(hit.key) }
                    : null,
              )
            }
            tools={
              <IconButton
                icon="measure"
                label="Measure"
                pressed={measuring}
                onClick={() => {
                  setPlacing(null);
                  setMeasuring(!measuring);
                }}
              />
            }
            drawn={drawn}
            points={points}
            label={`3D view of ${zone?.name ?? 'the zone'}`}
          >
            {selection ? (
              <SelectionCard
                ctx={ctx}
                selection={selection}
                lists={zoneLists}
                tags={tags}
                files={zoneFiles}
                annotations={zoneAnnotations}
                measurements={zoneMeasurements}
                onFit={() => view?.fit(view.getSelection())}
                onClose={() => setSelection(null)}
              />
            ) : null}
            {measuring && view && zoneId ? (
              <MeasureTool view={view} base={base} zoneId={zoneId} perms={ctx.perms} onSaved={measurements.reload} onClose={() => setMeasuring(false)} />
            ) : null}
            {reading ? (
              <div class="scene-footer" role="status">
                <progress max={1} value={reading.fraction ?? 0} aria-label="Scan reading" /> {reading.status}
              </div>
            ) : null}
            {view && drawn === 0 && points === 0 && !reading && lists.data && files.data ? (
              <p class="scene-empty">Nothing to show in 3D in this zone yet: add a tag list or a scan (LAS, LAZ, PLY).</p>
            ) : null}
          </ScenePanel>
        </section>
      </div>
      <Dialog open={details} title={project.data.name} onClose={() => setDetails(false)}>
        <ProjectCover base={base} project={project.data} onChange={project.reload} />
        <dl class="fields">
          <dt>Scans</dt>
          <dd>{stats.scanCount ?? 0}</dd>
          <dt>Tags</dt>
          <dd>{stats.tagCount ?? 0}</dd>
          <dt>Work zones</dt>
          <dd>{stats.workzoneCount ?? zones.data?.length ?? 0}</dd>
          <dt>Last change</dt>
          <dd>{formatAgo(project.data.modificationInfo.updatedAt)}</dd>
        </dl>
      </Dialog>
    </main>
  );
}
