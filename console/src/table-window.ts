// Which rows of a long table are in the page (console/src/screens/tag-table.tsx): rows have
// one fixed height, so the rows in view follow from the scroll position alone.

/** The height of one row in CSS pixels: `.tag-window tr` in styles.css says the same. */
export const ROW_PX = 32;
/** Rows kept in the page above and below the ones in view. */
const OVERSCAN = 10;

/** The rows to put in the page for a scroll position: [first, end) of `total`. */
export function windowOf(scrollTop: number, viewportPx: number, total: number): [number, number] {
  // A list that just got shorter (a filter) may still hold the old scroll position until the
  // browser clamps it: count from the furthest position the new list allows.
  const top = Math.min(scrollTop, Math.max(0, (total + 1) * ROW_PX - viewportPx));
  const first = Math.max(0, Math.floor(top / ROW_PX) - OVERSCAN);
  const end = Math.min(total, Math.ceil((top + viewportPx) / ROW_PX) + OVERSCAN);
  return [first, Math.max(first, end)];
}
