// Annotations and measurements of a work zone (docs/annotations.md): the zone's annotations
// with their comments (create, comment, delete), and its measurements (create from points in
// project coordinates, delete). What the caller may not do is shown disabled with the
// permission it needs, as the other panels do. The zone's screen loads both lists (its 3D
// view draws them: pins and lines) and hands them in; an annotation picked in the view is
// the one marked here, and "Place in 3D" takes a new annotation's position from a click in
// the view.
import { useState } from 'preact/hooks';
import { api, uuidOf } from '../api.ts';
import { apiPath, type ApiPath } from '../paths.ts';
import type { Annotation, Measurement } from '../types.ts';
import { Action, Empty, ErrorBox, Head, Loading, deniedUnless, useAction, type Loaded } from '../ui.tsx';
import { AnnotationLinks, ProjectIntegrationsSection, useFollowPendingLinks } from './integrations.tsx';

const TYPES = ['Note', 'Issue', 'Resolved', 'Private note'] as const;
export const KINDS = ['distance', 'polyline', 'area', 'height'] as const;
const same = (a: string, b: string) => uuidOf(a) === uuidOf(b);

/** "X, Y, Z" lines as points, or the reason they are not. */
export function pointsOf(text: string): { x: number; y: number; z: number }[] | string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const out = [];
  for (const [i, line] of lines.entries()) {
    const n = line.split(/[,\s]+/).filter(Boolean).map(Number);
    if (n.length !== 3 || !n.every(Number.isFinite)) return `Point ${i + 1} must be three numbers: X, Y, Z.`;
    out.push({ x: n[0]!, y: n[1]!, z: n[2]! });
  }
  return out;
}

const metres = (v: number | null) => (v === null ? '—' : `${v.toFixed(3)} m`);

/** A point as the position field shows it: millimetres. */
export const pointText = (p: { x: number; y: number; z: number }) => [p.x, p.y, p.z].map((n) => +n.toFixed(3)).join(', ');

/** The project's annotations (with comments), or none without `workzone:annotations:read` in the zone. */
export function loadAnnotations(base: ApiPath, perms: ReadonlySet<string> | undefined): Promise<Annotation[]> {
  return deniedUnless(perms, 'workzone:annotations:read') ? Promise.resolve([]) : api<Annotation[]>('GET', `${apiPath`${base}/annotations`}?includeComments=true`);
}

/** The project's measurements, or none without `workzone:measurements:read` in the zone. */
export function loadMeasurements(base: ApiPath, perms: ReadonlySet<string> | undefined): Promise<Measurement[]> {
  return deniedUnless(perms, 'workzone:measurements:read') ? Promise.resolve([]) : api<Measurement[]>('GET', apiPath`${base}/measurements`);
}

export function AnnotationsPanel(props: {
  base: ApiPath;
  zoneId: string;
  perms: ReadonlySet<string> | undefined;
  /** The caller's permissions on the project (integration links and configurations are the project's). */
  projectPerms: readonly string[] | undefined;
  all: Loaded<Annotation[]>;
  /** The annotation selected (in the view or here), by id. */
  selected: string | null;
  onSelect: (id: string) => void;
  /** Asks the view for a point; `set` receives it in project coordinates. */
  onPlace: (set: (p: { x: number; y: number; z: number }) => void) => void;
  placing: boolean;
}) {
  const { base, zoneId, all } = props;
  const readDenied = deniedUnless(props.perms, 'workzone:annotations:read');
  const writeDenied = deniedUnless(props.perms, 'workzone:annotations:write');
  const here = (all.data ?? []).filter((a) => same(a.workzoneId, zoneId));
  const [title, setTitle] = useState('');
  const [type, setType] = useState<(typeof TYPES)[number]>('Note');
  const [at, setAt] = useState('0, 0, 0');
  const [comment, setComment] = useState<Record<string, string>>({});
  const [run, busy, error] = useAction();
  useFollowPendingLinks(all.data, all.reload);

  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      if (!title.trim()) throw new Error('The annotation needs a title.');
      const p = pointsOf(at);
      if (typeof p === 'string' || p.length !== 1) throw new Error('The position must be three numbers: X, Y, Z.');
      await api('POST', apiPath`${base}/annotations`, { workzoneId: zoneId, annotationType: type, title: title.trim(), position: p[0], savedView: null });
      setTitle('');
      all.reload();
    });
  };
  const addComment = (e: Event, a: Annotation) => {
    e.preventDefault();
    const text = (comment[a.id] ?? '').trim();
    if (!text) return;
    void run(() => api('POST', apiPath`${base}/annotations/${uuidOf(a.id)}/comments`, { description: text })).then((ok) => {
      if (!ok) return;
      setComment((c) => ({ ...c, [a.id]: '' }));
      all.reload();
    });
  };
  if (readDenied && props.perms) return <p class="muted">{readDenied} to see this zone's annotations.</p>;
  return (
    <div>
      <ProjectIntegrationsSection base={base} projectPerms={props.projectPerms} />
      <form class="grid-form" onSubmit={create} aria-label="New annotation">
        <label for="annotation-title">Title</label>
        <input id="annotation-title" value={title} maxLength={255} disabled={Boolean(writeDenied)} onInput={(e) => setTitle(e.currentTarget.value)} />
        <label for="annotation-type">Type</label>
        <select id="annotation-type" value={type} disabled={Boolean(writeDenied)} onChange={(e) => setType(e.currentTarget.value as (typeof TYPES)[number])}>
          {TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <label for="annotation-at">Position (X, Y, Z)</label>
        <input id="annotation-at" value={at} disabled={Boolean(writeDenied)} onInput={(e) => setAt(e.currentTarget.value)} />
        <span />
        <button type="button" aria-pressed={props.placing} disabled={Boolean(writeDenied)} onClick={() => props.onPlace((p) => setAt(pointText(p)))}>
          {props.placing ? 'Click a point in the 3D view…' : 'Place in 3D'}
        </button>
        <Action label="Create annotation" type="submit" kind="primary" denied={writeDenied} busy={busy} />
      </form>
      <ErrorBox error={error ?? all.error} />
      {all.loading && !all.data ? <Loading what="annotations" /> : null}
      {all.data && here.length === 0 ? <Empty>No annotation in this zone yet.</Empty> : null}
      {here.length ? (
        <ul class="annotations">
          {here.map((a) => (
            <li key={a.id} aria-label={`Annotation ${a.number}: ${a.title}`} class={same(a.id, props.selected ?? '') ? 'selected' : undefined}>
              <p>
                <button type="button" class="annotation-name" aria-pressed={same(a.id, props.selected ?? '')} onClick={() => props.onSelect(uuidOf(a.id))}>
                  <strong>
                    #{a.number} {a.title}
                  </strong>
                </button>{' '}
                <span class="muted">
                  {a.annotationType} at {a.position ? `${a.position.x}, ${a.position.y}, ${a.position.z}` : '—'}
                </span>
              </p>
              {a.comments?.length ? (
                <ul aria-label={`Comments on ${a.title}`}>
                  {a.comments.map((c) => (
                    <li key={c.id}>{c.descriptionText}</li>
                  ))}
                </ul>
              ) : null}
              <AnnotationLinks base={base} annotation={a} projectPerms={props.projectPerms} onChanged={all.reload} />
              {writeDenied ? null : (
                <form class="row" onSubmit={(e) => addComment(e, a)}>
                  <label for={`comment-${a.id}`}>Comment on {a.title}</label>
                  <input id={`comment-${a.id}`} value={comment[a.id] ?? ''} onInput={(e) => setComment((c) => ({ ...c, [a.id]: e.currentTarget.value }))} />
                  <Action label={`Add the comment on ${a.title}`} type="submit" busy={busy} />
                  <button
                    type="button"
                    class="danger"
                    disabled={busy}
                    onClick={() => confirm(`Delete the annotation ${a.title}?`) && void run(() => api('DELETE', apiPath`${base}/annotations/${uuidOf(a.id)}`)).then((ok) => ok && all.reload())}
                  >
                    Delete {a.title}
                  </button>
                </form>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function MeasurementsPanel(props: {
  base: ApiPath;
  zoneId: string;
  perms: ReadonlySet<string> | undefined;
  all: Loaded<Measurement[]>;
  /** The measurement selected in the view (its line drawn in the selection's colour), or null. */
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const { base, zoneId, all } = props;
  const readDenied = deniedUnless(props.perms, 'workzone:measurements:read');
  const writeDenied = deniedUnless(props.perms, 'workzone:measurements:write');
  const here = (all.data ?? []).filter((m) => same(m.workzoneId, zoneId));
  const [name, setName] = useState('');
  const [kind, setKind] = useState<(typeof KINDS)[number]>('distance');
  const [points, setPoints] = useState('0, 0, 0\n1, 0, 0');
  const [run, busy, error] = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      if (!name.trim()) throw new Error('The measurement needs a name.');
      const p = pointsOf(points);
      if (typeof p === 'string') throw new Error(p);
      await api('POST', apiPath`${base}/measurements`, { workzoneId: zoneId, name: name.trim(), kind, points: p });
      setName('');
      all.reload();
    });
  };
  if (readDenied && props.perms) return <p class="muted">{readDenied} to see this zone's measurements.</p>;
  return (
    <div>
      <form class="grid-form" onSubmit={create} aria-label="New measurement">
        <label for="measurement-name">Measurement name</label>
        <input id="measurement-name" value={name} maxLength={255} disabled={Boolean(writeDenied)} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="measurement-kind">Kind</label>
        <select id="measurement-kind" value={kind} disabled={Boolean(writeDenied)} onChange={(e) => setKind(e.currentTarget.value as (typeof KINDS)[number])}>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        <label for="measurement-points">Points (X, Y, Z per line)</label>
        <textarea id="measurement-points" rows={4} value={points} disabled={Boolean(writeDenied)} onInput={(e) => setPoints(e.currentTarget.value)} />
        <Action label="Create measurement" type="submit" kind="primary" denied={writeDenied} busy={busy} />
      </form>
      <ErrorBox error={error ?? all.error} />
      {all.loading && !all.data ? <Loading what="measurements" /> : null}
      {all.data && here.length === 0 ? <Empty>No measurement in this zone yet.</Empty> : null}
      {here.length ? (
        <table class="measurements">
          <Head cols={['Name', 'Kind', 'Length', 'Height', 'Area', 'Actions']} />
          <tbody>
            {here.map((m) => (
              <tr key={m.id} class={same(m.id, props.selected ?? '') ? 'selected' : undefined}>
                <td>
                  <button type="button" class="annotation-name" aria-pressed={same(m.id, props.selected ?? '')} onClick={() => props.onSelect(uuidOf(m.id))}>
                    {m.name}
                  </button>
                </td>
                <td>{m.kind}</td>
                <td>{metres(m.length)}</td>
                <td>{metres(m.height)}</td>
                <td>{m.area === null ? '—' : `${m.area.toFixed(3)} m²`}</td>
                <td>
                  {writeDenied ? null : (
                    <button
                      type="button"
                      class="danger"
                      disabled={busy}
                      onClick={() => confirm(`Delete the measurement ${m.name}?`) && void run(() => api('DELETE', apiPath`${base}/measurements/${uuidOf(m.id)}`)).then((ok) => ok && all.reload())}
                    >
                      Delete {m.name}
                    </button>
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
