// Tags as CSV: one row per tag, one column per member of the tag's data (TagData), plus
// the service's `id` first (informative: an import creates new tags). Scalars are written
// as they are; arrays and objects (boundingBox, cameraState, model…) as JSON in the cell.
// Reading back, each column's kind comes from TagData's schema (spec: "TagData"), so a
// name of "42" stays a string and a unit of 2 becomes a number again.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

type Kind = 'string' | 'number' | 'boolean' | 'json';

/** TagData's members in the spec's order, and their kinds. */
const FIELDS: [string, Kind][] = [
  ['id', 'string'], ['subId', 'string'], ['uuid', 'string'], ['name', 'string'], ['class', 'string'], ['nature', 'string'],
  ['description', 'string'], ['functionalSystem', 'string'], ['url', 'string'], ['pageId', 'string'], ['pageLinkId', 'string'],
  ['unit', 'number'], ['confidence', 'number'], ['needValidation', 'boolean'],
  ['boundingBox', 'json'], ['orientedBoundingBox', 'json'], ['model', 'json'], ['cameraState', 'json'], ['tagLinkIds', 'json'],
  ['scanUuids', 'json'], ['customFields', 'json'], ['metadata', 'json'],
];
const KIND = new Map(FIELDS);
/** The column of the service's id of the tag (the data's own `id` is the `data.id` column). */
const TAG_ID = 'tagId';

export function tagsToCsv(tags: { id: string; data: Record<string, unknown> }[]): string {
  const present = new Set(tags.flatMap((t) => Object.keys(t.data)));
  const known = FIELDS.map(([k]) => k).filter((k) => present.has(k));
  const other = [...present].filter((k) => !KIND.has(k)).sort();
  const columns = [...known, ...other];
  const cell = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  return stringify(
    tags.map((t) => [t.id, ...columns.map((c) => cell(t.data[c]))]),
    { header: true, columns: [TAG_ID, ...columns.map((c) => `data.${c}`)] },
  );
}

/** The tags' data of a CSV written by tagsToCsv (or by hand with the same header). */
export function csvToTagData(text: string): Record<string, unknown>[] {
  const rows = parse(text, { columns: true, skip_empty_lines: true, bom: true }) as Record<string, string>[];
  return rows.map((row, i) => {
    const data: Record<string, unknown> = {};
    for (const [column, raw] of Object.entries(row)) {
      if (column === TAG_ID || raw === '') continue;
      if (!column.startsWith('data.')) throw new Error(`line ${i + 2}: unknown column ${column} (expected ${TAG_ID} or data.<member>)`);
      const key = column.slice(5);
      data[key] = value(KIND.get(key) ?? 'string', raw, `line ${i + 2}, ${column}`);
    }
    return data;
  });
}

function value(kind: Kind, raw: string, where: string): unknown {
  if (kind === 'string') return raw;
  if (kind === 'number') {
    const n = Number(raw);
    if (!Number.isFinite(n)) throw new Error(`${where}: not a number: ${raw}`);
    return n;
  }
  if (kind === 'boolean') {
    if (raw !== 'true' && raw !== 'false') throw new Error(`${where}: expected true or false: ${raw}`);
    return raw === 'true';
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw new Error(`${where}: not JSON: ${raw}`);
  }
}
