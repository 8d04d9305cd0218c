// What the snapshot engine reads and writes an object store through (blobs.ts makes one per
// store kind; blobs-s3.ts is S3's): a leaf, so that the kinds' files import it and not each other.
import type { Readable } from 'node:stream';

export interface BlobEntry {
  key: string;
  size: number;
  /** Lower-case hex, when the store knows it (S3 objects assembled from parts: not). */
  md5: string | null;
  contentType: string | null;
  cacheControl: string | null;
}

export interface BlobAccess {
  list(): AsyncIterable<BlobEntry>;
  /** The object's bytes, and its entry completed with the headers a listing lacks; null when it is gone (deleted after the listing). */
  read(entry: BlobEntry): Promise<{ body: Readable; entry: BlobEntry } | null>;
  write(entry: BlobEntry, body: Readable): Promise<void>;
  deleteAll(): Promise<void>;
}
