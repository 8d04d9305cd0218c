// The S3-type store's blobs for snapshots (blobs.ts): ListObjectsV2, GetObject, and
// PutObject with the object's length and headers (ContentMD5 when the MD5 is known, so S3
// checks the bytes); above the single-PUT limit, a multipart upload of bounded parts.
import {
  AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CreateMultipartUploadCommand, GetObjectCommand, ListObjectsV2Command,
  PutObjectCommand, UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import { S3Store } from '../storage/s3.ts';
import type { BlobAccess, BlobEntry } from './blob-access.ts';

const isNotFound = (e: unknown) => (e as { name?: string })?.name === 'NoSuchKey' || (e as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 404;
/** S3 allows 10,000 parts; parts of at least 64 MiB, read into memory one at a time. */
const MAX_PARTS = 10_000;
const MIN_PART = 64 * 1024 * 1024;

/** The next `size` bytes of an iterator over a stream (fewer at its end), as one buffer. */
async function takeBytes(it: AsyncIterator<Buffer>, pending: Buffer[], size: number): Promise<Buffer> {
  let have = pending.reduce((n, b) => n + b.length, 0);
  while (have < size) {
    const r = await it.next();
    if (r.done) break;
    pending.push(r.value);
    have += r.value.length;
  }
  const all = Buffer.concat(pending.splice(0));
  if (all.length > size) pending.push(all.subarray(size));
  return all.subarray(0, size);
}

export function s3BlobAccess(store: ObjectStore, deleteAll: () => Promise<void>, singlePutMax: number): BlobAccess {
  if (!(store instanceof S3Store)) throw new Error('an s3 store of another kind');
  const { client, bucket } = store;

  async function writeInParts(e: BlobEntry, body: Readable): Promise<void> {
    const partSize = Math.max(MIN_PART, Math.ceil(e.size / MAX_PARTS));
    const created = await client.send(new CreateMultipartUploadCommand({
      Bucket: bucket, Key: e.key, ContentType: e.contentType ?? undefined, CacheControl: e.cacheControl ?? undefined,
    }));
    const uploadId = created.UploadId!;
    try {
      const it = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
      const pending: Buffer[] = [];
      const parts: { PartNumber: number; ETag: string }[] = [];
      for (let n = 1, left = e.size; left > 0; n++) {
        const bytes = await takeBytes(it, pending, Math.min(partSize, left));
        if (!bytes.length) throw new Error(`blob ${e.key}: the snapshot holds fewer bytes than its size`);
        const res = await client.send(new UploadPartCommand({ Bucket: bucket, Key: e.key, UploadId: uploadId, PartNumber: n, Body: bytes, ContentLength: bytes.length }));
        parts.push({ PartNumber: n, ETag: res.ETag! });
        left -= bytes.length;
      }
      await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: e.key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    } catch (err) {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: e.key, UploadId: uploadId })).catch((abortFailure: unknown) => {
        throw new AggregateError([err, abortFailure], `blob ${e.key}: the upload failed and so did its abort`);
      });
      throw err;
    }
  }

  return {
    async *list() {
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        for (const o of page.Contents ?? []) {
          // Headers are read with the bytes (GetObject); the listing has the size and ETag.
          const etag = (o.ETag ?? '').replace(/"/g, '').toLowerCase();
          yield { key: o.Key!, size: o.Size ?? 0, md5: /^[0-9a-f]{32}$/.test(etag) ? etag : null, contentType: null, cacheControl: null };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async read(e) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: e.key }));
        return { body: res.Body as Readable, entry: { ...e, contentType: res.ContentType ?? null, cacheControl: res.CacheControl ?? null } };
      } catch (e) {
        if (isNotFound(e)) return null;
        throw e;
      }
    },
    async write(e, body) {
      if (e.size > singlePutMax) return writeInParts(e, body);
      await client.send(new PutObjectCommand({
        Bucket: bucket, Key: e.key, Body: body, ContentLength: e.size,
        ContentType: e.contentType ?? undefined, CacheControl: e.cacheControl ?? undefined,
        ContentMD5: e.md5 ? Buffer.from(e.md5, 'hex').toString('base64') : undefined,
      }));
    },
    deleteAll,
  };
}
