// Rows of a read over many projects (or any key), gathered per key in the rows' order.

/** Each row's `valueOf` in a list per `keyOf`, lists and their items in the rows' order. */
export function grouped<R, T>(rows: Iterable<R>, keyOf: (r: R) => string, valueOf: (r: R) => T): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const key = keyOf(r);
    const list = out.get(key);
    if (list) list.push(valueOf(r));
    else out.set(key, [valueOf(r)]);
  }
  return out;
}
