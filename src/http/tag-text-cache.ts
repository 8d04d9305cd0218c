// Full tag lists as sent, kept per (list, tagsVersion, variant): every change of a tag raises
// the version, and the variant holds the list fields written into each tag (its tagListType),
// so an entry can never be stale, on any node; a read checks the version it just loaded. Bounded
// by total bytes, least recently used out first. Only whole lists are kept (afterVersion and
// since answers are small and vary per caller).
export class TagTextCache {
  private readonly entries = new Map<string, { version: number; variant: string; body: Buffer }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(listId: string, version: number, variant = ''): Buffer | undefined {
    const e = this.entries.get(listId);
    if (!e || e.version !== version || e.variant !== variant) return undefined;
    this.entries.delete(listId); // most recently used goes last
    this.entries.set(listId, e);
    return e.body;
  }

  set(listId: string, version: number, body: Buffer, variant = ''): void {
    const old = this.entries.get(listId);
    if (old && old.version > version) return; // a newer version is already there
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(listId);
    }
    if (body.length > this.maxBytes) return;
    this.entries.set(listId, { version, variant, body });
    this.bytes += body.length;
    for (const [id, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(id);
      this.bytes -= e.body.length;
    }
  }
}
