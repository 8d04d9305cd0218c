// A tag's JSON as one API generation sends it, described once as a list of fields (name and
// value); both ways of writing it come from that list: the store's shape (TagJsonShape, the
// pieces its SQL turns into text, docs/tags.md "Reading whole lists") and the JS writer the
// other reads use. The descriptions themselves are the presentation's (src/modules/tags/http/api1-tag-json.ts,
// src/modules/tags/http/api2-tag-json.ts); compose hands them to the tag use cases.
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import type { TagJsonPiece, TagJsonShape, TagListRecord, TagRow } from './ports.ts';

type UuidColumn = 'id' | 'createdBy' | 'updatedBy' | 'deletedBy';
type TimeColumn = 'createdAt' | 'updatedAt' | 'deletedAt';

/** A field's value: the same for every tag of the list, or a column of the tag written as JSON (null when null). */
export type TagJsonValue =
  | { const: string | number | boolean | null }
  /** A string "<prefix><uuid>" (the prefix as it is, unescaped: a URN prefix). */
  | { uuid: UuidColumn; prefix: string }
  /** The API 1 id of the UUID (src/core/ids/api1-id.ts). */
  | { api1: UuidColumn }
  /** RFC 3339 UTC with milliseconds (Date.toISOString). */
  | { time: TimeColumn }
  | { int: 'version' }
  | { bool: 'isDeleted' }
  /** The stored TagData text, verbatim. */
  | { json: 'data' };

export type TagJsonField = readonly [name: string, value: TagJsonValue];

/** The fields of a list's tags, in order: live tags, and tombstones when they are written otherwise. */
export interface TagJsonFields {
  live: readonly TagJsonField[];
  deleted?: readonly TagJsonField[];
}

/** One API generation's tag JSON: its fields for a list. */
export interface TagJsonDescription {
  generation: 1 | 2;
  fieldsOf(list: TagListRecord): TagJsonFields;
}

/** The pieces of an object with these fields, adjacent literals joined (the store's shape key digests them). */
function piecesOf(fields: readonly TagJsonField[]): TagJsonPiece[] {
  const out: TagJsonPiece[] = [];
  let text = '';
  fields.forEach(([name, value], i) => {
    text += `${i ? ',' : '{'}${JSON.stringify(name)}:`;
    if ('const' in value) {
      text += JSON.stringify(value.const);
      return;
    }
    out.push({ text });
    text = '';
    out.push('uuid' in value ? { uuid: value.uuid, prefix: JSON.stringify(value.prefix).slice(1, -1) } : value);
  });
  out.push({ text: `${text}}` });
  return out;
}

/** The store's shape of a generation's tags for a list. */
export function tagShapeOf(d: TagJsonDescription, list: TagListRecord): TagJsonShape {
  const f = d.fieldsOf(list);
  return { live: piecesOf(f.live), ...(f.deleted ? { deleted: piecesOf(f.deleted) } : {}), generation: d.generation };
}

type Part = string | ((t: TagRow) => string);

/** One piece as text or as a function of the row; `ids` keeps the text of repeated uuids (the same few users). */
function partOf(p: TagJsonPiece, ids: Map<string, string>): Part {
  if ('text' in p) return p.text;
  const cached = (key: string, make: () => string) => {
    let s = ids.get(key);
    if (s === undefined) ids.set(key, (s = make()));
    return s;
  };
  if ('uuid' in p) {
    const c = p.uuid;
    const q = `"${p.prefix}`;
    if (c === 'id') return (t) => `${q}${t.id}"`;
    return (t) => {
      const v = t[c];
      return v ? cached(`u${v}`, () => `${q}${v}"`) : 'null';
    };
  }
  if ('api1' in p) {
    const c = p.api1;
    if (c === 'id') return (t) => `"${api1IdOf(t.id)}"`;
    return (t) => {
      const v = t[c];
      return v ? cached(`a${v}`, () => `"${api1IdOf(v)}"`) : 'null';
    };
  }
  if ('time' in p) {
    const c = p.time;
    return (t) => {
      const v = t[c];
      return v ? `"${v.toISOString()}"` : 'null';
    };
  }
  if ('int' in p) return (t) => String(t.version);
  if ('bool' in p) return (t) => (t.deletedAt ? 'true' : 'false');
  return (t) => t.data;
}

function compile(pieces: TagJsonPiece[], ids: Map<string, string>): (t: TagRow) => string {
  const parts = pieces.map((p) => partOf(p, ids));
  return (t) => {
    let s = '';
    for (const part of parts) s += typeof part === 'string' ? part : part(t);
    return s;
  };
}

/** Writes a list's tags as the generation sends them: the same text the store's shape gives. */
export function tagWriterOf(d: TagJsonDescription, list: TagListRecord): (t: TagRow) => string {
  const shape = tagShapeOf(d, list);
  const ids = new Map<string, string>();
  const live = compile(shape.live, ids);
  if (!shape.deleted) return live;
  const deleted = compile(shape.deleted, ids);
  return (t) => (t.deletedAt ? deleted(t) : live(t));
}
