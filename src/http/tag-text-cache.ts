// Whole tag lists as sent, kept per node: each list's tags as written (in list order) and
// the joined body, for one (tagsVersion, variant). Every change of a tag raises the version,
// and the variant holds the list fields written into each tag (its tagListType), so an entry
// is never stale; a read checks the version it just loaded. When the version moved on, only
// the tags changed since the kept version are read and patched into a copy (updated tags
// keep their place, new ones go last, deleted ones go), so the first read after a change
// costs its changes, not the whole list, on any node that read the list before. Bounded by
// total bytes, least recently used out first.
import type { RenderedTag } from '../core/ports/tags.ts';

/** A kept list (never changed once kept: a newer version is a patched copy). */
export interface KeptList {
  readonly version: number;
  readonly variant: string;
}

/** A tag as kept: its place and its bytes (encoded once, reused by every later version). */
interface KeptTag {
  seq: number;
  bytes: Buffer;
}

interface Entry extends KeptList {
  version: number;
  variant: string;
  tags: Map<string, KeptTag>;
  body: Buffer;
  bytes: number;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

export interface TagListText {
  version: number;
  rows: RenderedTag[];
}

export class TagTextCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(listId: string, version: number, variant: string): Buffer | undefined {
    const e = this.entries.get(listId);
    if (!e || e.version !== version || e.variant !== variant) return undefined;
    this.entries.delete(listId); // most recently used goes last
    this.entries.set(listId, e);
    return e.body;
  }

  /** The list as kept (any version), to read only the changes after its version. */
  kept(listId: string): KeptList | undefined {
    return this.entries.get(listId);
  }

  /**
   * The body of `text`: the whole list (no `base`: live tags only), or the changes after
   * `base.version` (tombstones included) patched into a copy of `base` (same variant). Keeps
   * the result unless a newer version is kept already.
   */
  body(listId: string, variant: string, text: TagListText, base?: KeptList): Buffer {
    const kept = (r: RenderedTag): KeptTag => ({ seq: r.seq, bytes: Buffer.from(r.json) });
    let tags: Map<string, KeptTag>;
    if (!base) {
      tags = new Map(text.rows.map((r) => [r.id, kept(r)]));
    } else {
      tags = new Map((base as Entry).tags);
      for (const r of text.rows) {
        const old = tags.get(r.id);
        if (r.deleted) tags.delete(r.id);
        else if (old && old.seq === r.seq) tags.set(r.id, kept(r)); // in place
        else {
          tags.delete(r.id); // a tag that came back (a move) takes its new place: last
          tags.set(r.id, kept(r));
        }
      }
    }
    const parts = new Array<Buffer>(2 * tags.size + 1);
    let i = 0;
    parts[i++] = OPEN;
    for (const t of tags.values()) {
      if (i > 1) parts[i++] = COMMA;
      parts[i++] = t.bytes;
    }
    parts[i++] = CLOSE;
    const body = Buffer.concat(parts.slice(0, i));
    const current = this.entries.get(listId);
    if (!current || current.version < text.version || current.variant !== variant) {
      if (current) {
        this.bytes -= current.bytes;
        this.entries.delete(listId);
      }
      const bytes = body.length * 2; // the body, and each tag's bytes
      if (bytes <= this.maxBytes) {
        this.entries.set(listId, { version: text.version, variant, tags, body, bytes });
        this.bytes += bytes;
        for (const [id, e] of this.entries) {
          if (this.bytes <= this.maxBytes) break;
          this.entries.delete(id);
          this.bytes -= e.bytes;
        }
      }
    }
    return body;
  }
}
