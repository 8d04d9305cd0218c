// The tag table, windowed: of a list of up to 50,000 tags only the rows in view (plus a
// few above and below) are in the page; spacer rows keep the scroll height of the whole
// list. Rows have one fixed height (styles.css `.tag-window`), so the rows in view follow
// from the scroll position alone; no measuring. Picking a tag (in 3D or here) scrolls it
// into view.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Tag } from '../types.ts';
import { ROW_PX, windowOf } from '../table-window.ts';

export interface Row {
  t: Tag;
  /** The tag's index in the list (what the 3D view picks). */
  i: number;
}

const COLUMNS = ['Id', 'Name', 'Class', 'Box'] as const;

export function TagTable(props: { rows: Row[]; picked: number | null; onPick: (i: number) => void }) {
  const { rows } = props;
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 480 });
  const measure = () => {
    const el = box.current;
    if (el) setView({ top: el.scrollTop, height: el.clientHeight });
  };
  useEffect(() => {
    measure();
    addEventListener('resize', measure);
    return () => removeEventListener('resize', measure);
  }, []);
  // The scroll position after the list changed (a filter shortens it and the browser clamps).
  useEffect(measure, [rows.length]);
  // A tag picked elsewhere (the 3D view) is scrolled into view.
  useEffect(() => {
    const el = box.current;
    const at = props.picked === null ? -1 : rows.findIndex((r) => r.i === props.picked);
    if (!el || at < 0) return;
    const y = at * ROW_PX;
    // The header row is one row high and sticks to the top.
    if (y < el.scrollTop || y + 2 * ROW_PX > el.scrollTop + el.clientHeight) el.scrollTop = Math.max(0, y - el.clientHeight / 2);
  }, [props.picked, rows]);

  const [first, end] = windowOf(view.top, view.height, rows.length);
  return (
    <div class="tag-window" ref={box} tabIndex={0} role="region" aria-label="Tags (scroll for more)" onScroll={measure}>
      <table class="tags" aria-rowcount={rows.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {COLUMNS.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {first > 0 ? <tr aria-hidden="true" class="spacer" style={{ height: `${first * ROW_PX}px` }} /> : null}
          {rows.slice(first, end).map(({ t, i }, k) => (
            <tr key={t.id} aria-rowindex={first + k + 2} class={i === props.picked ? 'current' : undefined}>
              <td>
                <button type="button" class="link" onClick={() => props.onPick(i)}>
                  {t.data.id}
                </button>
              </td>
              <td>{t.data.name ?? ''}</td>
              <td>{t.data.class ?? ''}</td>
              <td>{t.data.orientedBoundingBox ? 'oriented' : t.data.boundingBox ? 'axis-aligned' : 'none'}</td>
            </tr>
          ))}
          {end < rows.length ? <tr aria-hidden="true" class="spacer" style={{ height: `${(rows.length - end) * ROW_PX}px` }} /> : null}
        </tbody>
      </table>
    </div>
  );
}
