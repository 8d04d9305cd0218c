// The local-disk store's upload writer (docs/storage.md): an upload's chunks go to its
// temporary file in batches, with a datasync every 64 MiB while the body still arrives.
import { handledLater } from '../../core/promises.ts';
/** What the writer needs of a file handle (a FileHandle; a recording one in tests). */
export interface WriteTarget {
  writev(buffers: Buffer[], position: number): Promise<{ bytesWritten: number }>;
  datasync(): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Writes an upload's chunks to its temporary file. Chunks are gathered into batches (4 MiB) written
 * with one `writev` while the next batch is received (one write in flight: the socket is
 * not read while two batches wait, so memory stays at about two batches). Every
 * `flushEvery` bytes (64 MiB) it also starts a `datasync`, so the disk writes the file back while the
 * body is still arriving and the final fsync has only the tail left: without it the whole
 * file reaches the disk only after the last byte (the kernel holds gigabytes of dirty pages
 * on a machine with memory), and an upload takes receive time plus flush time.
 */
export class FlushingWriter {
  private readonly batchLimit: number;
  private readonly flushEvery: number;
  private batch: Buffer[] = [];
  private batchBytes = 0;
  private position = 0;
  private unflushed = 0;
  private writing: Promise<void> = Promise.resolve();
  private flushing: Promise<void> | null = null;
  private closed = false;

  private readonly fh: WriteTarget;

  /** `position`: where in the file the first byte goes (a multipart part's offset; default 0). */
  constructor(fh: WriteTarget, opts: { batch?: number; flushEvery?: number; position?: number } = {}) {
    this.fh = fh;
    this.position = opts.position ?? 0;
    this.batchLimit = opts.batch ?? 4 * 1024 * 1024;
    this.flushEvery = opts.flushEvery ?? 64 * 1024 * 1024;
  }

  /** Queues a chunk; waits only when a full batch must wait for the write before it. */
  async push(chunk: Buffer): Promise<void> {
    this.batch.push(chunk);
    this.batchBytes += chunk.length;
    // Also by count: a slow client's small chunks stay well under the system's iovec limit.
    if (this.batchBytes >= this.batchLimit || this.batch.length >= 256) await this.startWrite();
  }

  private async startWrite(): Promise<void> {
    await this.writing; // a failed write surfaces here (or in finish)
    const chunks = this.batch;
    const bytes = this.batchBytes;
    this.batch = [];
    this.batchBytes = 0;
    this.writing = handledLater(writeAllAt(this.fh, chunks, this.position)); // awaited by the next batch or finish()
    this.position += bytes;
    this.unflushed += bytes;
    if (this.unflushed >= this.flushEvery && !this.flushing) {
      this.unflushed = 0;
      // After the write it follows: the flush then covers everything written so far.
      const flushing: Promise<void> = handledLater(
        this.writing
          .then(() => this.fh.datasync())
          .finally(() => {
            if (this.flushing === flushing) this.flushing = null;
          }),
      ); // awaited by finish()
      this.flushing = flushing;
    }
  }

  /** Writes what is left, waits for every write and flush, fsyncs and closes. */
  async finish(): Promise<void> {
    if (this.batchBytes > 0) await this.startWrite();
    await this.writing;
    if (this.flushing) await this.flushing;
    await this.fh.sync();
    this.closed = true;
    await this.fh.close();
  }

  /**
   * Waits for what is in flight and closes the file, after the upload failed: that failure is
   * the one reported, so these steps' own outcomes are only waited for.
   */
  async abandon(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([this.writing, this.flushing]);
    await Promise.allSettled([this.fh.close()]);
  }
}

/** `writev` until every byte is written (a regular file may take fewer bytes than asked). */
async function writeAllAt(fh: WriteTarget, chunks: Buffer[], position: number): Promise<void> {
  let rest = chunks;
  while (rest.length > 0) {
    const { bytesWritten } = await fh.writev(rest, position);
    position += bytesWritten;
    let skip = bytesWritten;
    const next: Buffer[] = [];
    for (const c of rest) {
      if (skip >= c.length) {
        skip -= c.length;
        continue;
      }
      next.push(skip > 0 ? c.subarray(skip) : c);
      skip = 0;
    }
    if (next.length === rest.length && bytesWritten === 0) throw new Error('writev wrote nothing');
    rest = next;
  }
}
