// A snapshot's blobs: every object of the deployment's store listed, read and written as
// a stream, with what a read of it serves besides its bytes (size, MD5, Content-Type,
// Cache-Control), on each of the three stores. The ObjectStore port has no such calls
// (clients move the bytes through signed URLs): this is the snapshot engine's own access to
// each adapter's client. In-progress multipart uploads are not objects and are not saved.
import { Readable } from 'node:stream';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import { LocalDiskStore } from '../storage/local-disk.ts';

export type { BlobAccess, BlobEntry } from './blob-access.ts';
import type { BlobAccess } from './blob-access.ts';

const hexOfBase64 = (b: Uint8Array | string | undefined) =>
  b === undefined ? null : Buffer.from(typeof b === 'string' ? Buffer.from(b, 'base64') : b).toString('hex');

/** S3 PutObject takes at most 5 GiB: larger objects are written in parts. */
export const S3_SINGLE_PUT_MAX = 5 * 1024 ** 3;

export async function blobAccessOf(store: ObjectStore, opts: { s3SinglePutMax?: number } = {}): Promise<BlobAccess> {
  const deleteAll = async () => {
    if (!store.deleteAll) throw new Error(`the ${store.provider} store cannot be emptied`);
    await store.deleteAll();
  };
  if (store instanceof LocalDiskStore) {
    return {
      async *list() {
        for await (const { key, meta } of store.listObjects()) {
          yield { key, size: meta.size, md5: meta.md5, contentType: meta.contentType ?? null, cacheControl: meta.cacheControl ?? null };
        }
      },
      async read(e) {
        const body = await store.openObject(e.key);
        return body && { body, entry: e };
      },
      async write(e, body) {
        if (!e.md5) throw new Error(`blob ${e.key} has no MD5: the local store keeps every object's`);
        await store.writeObject(e.key, body, { size: e.size, md5: e.md5, contentType: e.contentType ?? undefined, cacheControl: e.cacheControl ?? undefined });
      },
      deleteAll,
    };
  }
  if (store.provider === 's3') {
    const { s3BlobAccess } = await import('./blobs-s3.ts');
    return s3BlobAccess(store, deleteAll, opts.s3SinglePutMax ?? S3_SINGLE_PUT_MAX);
  }
  if (store.provider === 'azure') {
    const { AzureStore } = await import('../storage/azure.ts');
    if (!(store instanceof AzureStore)) throw new Error('an azure store of another kind');
    const container = store.container;
    return {
      async *list() {
        for await (const b of container.listBlobsFlat()) {
          const p = b.properties;
          yield {
            key: b.name, size: p.contentLength ?? 0, md5: p.contentMD5?.length === 16 ? hexOfBase64(p.contentMD5) : null,
            contentType: p.contentType ?? null, cacheControl: p.cacheControl ?? null,
          };
        }
      },
      async read(e) {
        try {
          const res = await container.getBlobClient(e.key).download();
          return { body: res.readableStreamBody ? Readable.from(res.readableStreamBody as AsyncIterable<Uint8Array>) : Readable.from([]), entry: e };
        } catch (e) {
          if ((e as { statusCode?: number }).statusCode === 404) return null;
          throw e;
        }
      },
      async write(e, body) {
        await container.getBlockBlobClient(e.key).uploadStream(body, 4 * 1024 * 1024, 4, {
          blobHTTPHeaders: {
            blobContentType: e.contentType ?? undefined,
            blobCacheControl: e.cacheControl ?? undefined,
            blobContentMD5: e.md5 ? Buffer.from(e.md5, 'hex') : undefined,
          },
        });
      },
      deleteAll,
    };
  }
  throw new Error(`snapshots: no blob access for the ${store.provider} store`);
}
