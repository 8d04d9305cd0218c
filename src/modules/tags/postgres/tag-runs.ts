// A run of tag texts as the store's aggregate answers it, made a TagTextRun: the texts
// (joined by SEP, a byte JSON text never holds raw: json input refuses raw control
// characters, and no UTF-8 sequence holds a byte below 0x80) become one buffer joined by
// commas, and the index ("<id> <seq>[ d]" per tag, comma-joined, in the same order) gives
// each tag's id, place and state. The aggregate has no ORDER BY (a sort of megabytes of
// text costs more than the scan); rows that came out of place are put in place here.
import type { TagTextRun } from '../core/ports.ts';

export const SEP = 0x02;
const COMMA = 0x2c;
const COMMA_BYTES = Buffer.from(',');

/** The run of `text` (the texts' UTF-8 bytes joined by SEP, made comma-joined in place) and `index`. */
export function runOf(text: Buffer, index: string): TagTextRun {
  const entries = index.split(',');
  const n = entries.length;
  const ids = new Array<string>(n);
  const seqs = new Array<number>(n);
  const deleted = new Array<boolean>(n);
  const starts = new Uint32Array(n + 1);
  let p = 0;
  let ordered = true;
  for (let i = 0; i < n; i++) {
    const e = entries[i]!;
    const a = e.indexOf(' ');
    const b = e.indexOf(' ', a + 1);
    ids[i] = e.slice(0, a);
    seqs[i] = Number(b < 0 ? e.slice(a + 1) : e.slice(a + 1, b));
    deleted[i] = b >= 0;
    if (i && seqs[i]! <= seqs[i - 1]!) ordered = false;
    starts[i] = p;
    if (i + 1 < n) {
      const sep = text.indexOf(SEP, p);
      if (sep < 0) throw new Error(`tag texts and index differ: ${n} tags, ${i + 1} texts`);
      text[sep] = COMMA;
      p = sep + 1;
    }
  }
  if (text.indexOf(SEP, p) >= 0) throw new Error(`tag texts and index differ: ${n} tags, more texts`);
  starts[n] = text.length + 1;
  const run: TagTextRun = { text, ids, seqs, deleted, starts };
  return ordered ? run : inPlace(run);
}

/** The run sorted by place (seq): its texts copied in that order. */
function inPlace(run: TagTextRun): TagTextRun {
  const n = run.ids.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => run.seqs[x]! - run.seqs[y]!);
  const parts: Buffer[] = [];
  const starts = new Uint32Array(n + 1);
  let p = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    const t = run.text.subarray(run.starts[i], run.starts[i + 1]! - 1);
    if (k) parts.push(COMMA_BYTES);
    parts.push(t);
    starts[k] = p;
    p += t.length + 1;
  }
  starts[n] = p;
  return {
    text: Buffer.concat(parts),
    ids: order.map((i) => run.ids[i]!),
    seqs: order.map((i) => run.seqs[i]!),
    deleted: order.map((i) => run.deleted[i]!),
    starts,
  };
}
