// The selection's card, drawn over the 3D view (so selecting never moves the page): a
// tag's name, id, class, list and box, with its editor one click away; a file's name,
// category, size and date; an annotation's number, title, type, position and comments; or a
// saved measurement's name, kind, values and points.
import { uuidOf } from '../api.ts';
import type { Annotation, FileItem, Measurement, Tag, TagList } from '../types.ts';
import { categoryName, formatDate, formatFullDate, formatSize } from '../format.ts';
import { IconButton, Link } from '../ui.tsx';
import { boxOf } from '../three/layers/tag-boxes.ts';
import { Swatch } from './tag-lists-panel.tsx';
import { fileLabel } from './files-panel.tsx';
import type { Ctx, ZoneSelection } from './project-context.ts';

const metres = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} m`;

export function SelectionCard(props: {
  ctx: Ctx;
  selection: ZoneSelection;
  lists: readonly TagList[];
  tags: ReadonlyMap<string, Tag[] | Error>;
  files: readonly FileItem[];
  annotations: readonly Annotation[];
  measurements: readonly Measurement[];
  onFit: () => void;
  onClose: () => void;
}) {
  const s = props.selection;
  let title = '';
  let body: preact.JSX.Element | null = null;
  if (s.kind === 'tag') {
    const list = props.lists.find((l) => uuidOf(l.id) === s.listId);
    const tags = props.tags.get(s.listId);
    const tag = Array.isArray(tags) ? tags[s.index] : undefined;
    if (!list || !tag) return null;
    const box = boxOf(tag.data);
    title = tag.data.name ?? tag.data.id;
    body = (
      <>
        <dl class="fields">
          <dt>Id</dt>
          <dd>{tag.data.id}</dd>
          <dt>Class</dt>
          <dd>{tag.data.class ?? '—'}</dd>
          <dt>List</dt>
          <dd>
            <Swatch colour={list.color} /> {list.name}
          </dd>
          <dt>Box</dt>
          <dd class="nowrap">
            {box ? `${tag.data.orientedBoundingBox ? 'oriented' : 'axis-aligned'}, ${box.size.map(metres).join(' × ')}` : 'none'}
          </dd>
          {tag.data.metadata?.length ? (
            <>
              <dt>Metadata</dt>
              <dd>{tag.data.metadata.length} values</dd>
            </>
          ) : null}
        </dl>
        <Link href={`/console/a/${props.ctx.accountId}/p/${uuidOf(props.ctx.project.id)}/t/${s.listId}?${new URLSearchParams({ tag: tag.data.id })}`}>Edit in the tag list</Link>
      </>
    );
  } else if (s.kind === 'annotation') {
    const a = props.annotations.find((x) => uuidOf(x.id) === uuidOf(s.id));
    if (!a) return null;
    title = `#${a.number ?? '—'} ${a.title ?? a.descriptionText}`;
    body = (
      <dl class="fields">
        <dt>Type</dt>
        <dd>{a.annotationType}</dd>
        <dt>Position</dt>
        <dd class="nowrap">{a.position ? [a.position.x, a.position.y, a.position.z].map(metres).join(', ') : '—'}</dd>
        <dt>Comments</dt>
        <dd>{a.comments?.length ?? 0}</dd>
      </dl>
    );
  } else if (s.kind === 'measurement') {
    const m = props.measurements.find((x) => uuidOf(x.id) === uuidOf(s.id));
    if (!m) return null;
    title = m.name;
    body = (
      <dl class="fields">
        <dt>Kind</dt>
        <dd>{m.kind}</dd>
        <dt>Length</dt>
        <dd class="nowrap">{m.length === null ? '—' : metres(m.length)}</dd>
        <dt>Height</dt>
        <dd class="nowrap">{m.height === null ? '—' : metres(m.height)}</dd>
        {m.area === null ? null : (
          <>
            <dt>Area</dt>
            <dd class="nowrap">{m.area.toFixed(3)} m²</dd>
          </>
        )}
        <dt>Points</dt>
        <dd>{m.points.length}</dd>
      </dl>
    );
  } else {
    const f = props.files.find((x) => uuidOf(x.id) === uuidOf(s.fileId));
    if (!f) return null;
    title = fileLabel(f);
    body = (
      <dl class="fields">
        <dt>Category</dt>
        <dd>{categoryName(f.type, false)}</dd>
        <dt>Size</dt>
        <dd class="nowrap">{formatSize(f.size)}</dd>
        <dt>Added</dt>
        <dd class="nowrap" title={formatFullDate(f.createdAt)}>
          {formatDate(f.createdAt)}
        </dd>
        {f.translation ? (
          <>
            <dt>Moved by</dt>
            <dd class="nowrap">{[f.translation.x, f.translation.y, f.translation.z].map(metres).join(', ')}</dd>
          </>
        ) : null}
      </dl>
    );
  }
  return (
    <section class="selection-card" data-testid="selection" aria-labelledby="selection-h">
      <header>
        <h2 id="selection-h" class="selection-name" title={title}>
          {title}
        </h2>
        <IconButton icon="maximize" label="Fit to selection" onClick={props.onFit} />
        <IconButton icon="close" label="Clear the selection" onClick={props.onClose} />
      </header>
      {body}
    </section>
  );
}
