// PointCloudObjects over the deployment's object store: whole objects streamed through the
// snapshot engine's access to each store (src/adapters/snapshots/blobs.ts: local disk, S3
// with multipart above 5 GiB, Azure), and byte ranges with each store's own range read.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from '../../../core/ports/object-store.ts';
import { blobAccessOf } from '../../../adapters/snapshots/blobs.ts';
import { LocalDiskStore } from '../../../adapters/storage/local-disk.ts';
import type { PointCloudObjects } from '../core/ports.ts';

const notFoundStatus = (e: unknown): boolean => {
  const err = e as { name?: string; statusCode?: number; $metadata?: { httpStatusCode?: number } };
  return err?.name === 'NoSuchKey' || err?.name === 'NotFound' || err?.statusCode === 404 || err?.$metadata?.httpStatusCode === 404;
};

async function md5OfFile(file: string): Promise<string> {
  const hash = createHash('md5');
  await pipeline(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}

export function pointCloudObjects(store: ObjectStore): PointCloudObjects {
  const access = blobAccessOf(store);
  return {
    async download(key, toFile) {
      const blobs = await access;
      const info = await store.stat(key);
      if (!info) return null;
      const got = await blobs.read({ key, size: info.size, md5: info.md5Hex, contentType: null, cacheControl: null });
      if (!got) return null;
      await pipeline(got.body, fs.createWriteStream(toFile));
      const { size } = await fsp.stat(toFile);
      if (size !== info.size) throw new Error(`downloaded ${size} bytes of ${key}, the store holds ${info.size}`);
      return { size };
    },

    async upload(key, fromFile, contentType) {
      const blobs = await access;
      const { size } = await fsp.stat(fromFile);
      const md5 = await md5OfFile(fromFile);
      await blobs.write({ key, size, md5, contentType, cacheControl: 'private, max-age=31536000, immutable' }, fs.createReadStream(fromFile, { highWaterMark: 1024 * 1024 }));
    },

    async readRange(key, start, end) {
      if (store instanceof LocalDiskStore) return store.openObject(key, { start, end });
      try {
        // The S3 and Azure SDKs load only on their stores (as blobs.ts does).
        if (store.provider === 's3') {
          const { S3Store } = await import('../../../adapters/storage/s3.ts');
          const { GetObjectCommand } = await import('@aws-sdk/client-s3');
          if (!(store instanceof S3Store)) throw new Error('an s3 store of another kind');
          const res = await store.client.send(new GetObjectCommand({ Bucket: store.bucket, Key: key, Range: `bytes=${start}-${end}` }));
          return res.Body ? Readable.from(res.Body as AsyncIterable<Uint8Array>) : Readable.from([]);
        }
        if (store.provider === 'azure') {
          const { AzureStore } = await import('../../../adapters/storage/azure.ts');
          if (!(store instanceof AzureStore)) throw new Error('an azure store of another kind');
          const res = await store.container.getBlobClient(key).download(start, end - start + 1);
          return res.readableStreamBody ? Readable.from(res.readableStreamBody as AsyncIterable<Uint8Array>) : Readable.from([]);
        }
      } catch (e) {
        if (notFoundStatus(e)) return null;
        throw e;
      }
      throw new Error(`no range reads on a ${store.provider} store`);
    },
  };
}
