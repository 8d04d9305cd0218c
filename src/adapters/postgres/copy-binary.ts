// The rows of a `COPY … TO STDOUT (FORMAT binary)` answer, read as its chunks arrive (they
// split rows and values anywhere). Binary COPY gives each value as its length and its bytes:
// a text value's bytes are its UTF-8 text, with no quoting or escaping to undo. The format:
// an 11-byte signature, a 32-bit flags field, a header extension (its length, then its
// bytes); per row a 16-bit field count, then per field a 32-bit length (-1: NULL) and the
// bytes; a count of -1 ends the data.

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Flags bit 16: each row starts with an OID (WITH OIDS, gone since PostgreSQL 12). */
const HAS_OIDS = 1 << 16;

export type CopyValues = (Buffer | null)[];

/** Bytes received and not yet read, as the chunks they came in. */
class Chunks {
  private list: Buffer[] = [];
  private head = 0;
  size = 0;

  push(chunk: Buffer): void {
    if (!chunk.length) return;
    this.list.push(chunk);
    this.size += chunk.length;
  }

  /** The next n bytes (a view when one chunk holds them, else a copy), or null until they have come. */
  take(n: number): Buffer | null {
    if (this.size < n) return null;
    this.size -= n;
    const first = this.list[0];
    if (!n) return Buffer.alloc(0);
    if (first!.length - this.head >= n) return this.view(n);
    const out = Buffer.allocUnsafe(n);
    for (let p = 0; p < n;) {
      const part = this.view(Math.min(this.list[0]!.length - this.head, n - p));
      out.set(part, p);
      p += part.length;
    }
    return out;
  }

  private view(n: number): Buffer {
    const first = this.list[0]!;
    const out = first.subarray(this.head, this.head + n);
    this.head += n;
    if (this.head === first.length) {
      this.list.shift();
      this.head = 0;
    }
    return out;
  }
}

type State = 'header' | 'extension' | 'row' | 'length' | 'value' | 'end';

/**
 * A reader handing each row's values to `onRow` (views of the chunks, or copies when a value
 * spans chunks; a caller may change them in place). `push` each chunk, then `end()`, which
 * throws unless the data ended where the format says it does. Malformed data throws.
 */
export function binaryCopyReader(onRow: (values: CopyValues) => void) {
  const chunks = new Chunks();
  let state: State = 'header';
  let fields = 0;
  let length = 0;
  let row: CopyValues = [];
  const malformed = (what: string) => new Error(`COPY binary data: ${what}`);
  // Each step reads what its state needs, or answers false until it has come.
  const step = (): boolean => {
    switch (state) {
      case 'header': {
        const h = chunks.take(SIGNATURE.length + 8);
        if (!h) return false;
        if (!h.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw malformed('no signature');
        if (h.readInt32BE(SIGNATURE.length) & HAS_OIDS) throw malformed('rows with OIDs');
        length = h.readInt32BE(SIGNATURE.length + 4);
        if (length < 0) throw malformed('a negative header extension');
        state = 'extension';
        return true;
      }
      case 'extension':
        if (!chunks.take(length)) return false;
        state = 'row';
        return true;
      case 'row': {
        const h = chunks.take(2);
        if (!h) return false;
        fields = h.readInt16BE(0);
        if (fields === -1) state = 'end';
        else if (fields < 0) throw malformed(`a field count of ${fields}`);
        else if (!fields) onRow([]);
        else {
          row = [];
          state = 'length';
        }
        return true;
      }
      case 'length': {
        const h = chunks.take(4);
        if (!h) return false;
        length = h.readInt32BE(0);
        if (length < -1) throw malformed(`a value length of ${length}`);
        if (length === -1) field(null);
        else state = 'value';
        return true;
      }
      case 'value': {
        const v = chunks.take(length);
        if (!v) return false;
        field(v);
        return true;
      }
      case 'end':
        if (chunks.size) throw malformed('bytes after the end');
        return false;
    }
  };
  const field = (v: Buffer | null) => {
    row.push(v);
    if (row.length < fields) state = 'length';
    else {
      state = 'row';
      onRow(row);
    }
  };
  return {
    push(chunk: Buffer): void {
      chunks.push(chunk);
      while (step());
    },
    end(): void {
      if (state !== 'end' || chunks.size) throw malformed(state === 'end' ? 'bytes after the end' : 'cut short');
    },
  };
}
