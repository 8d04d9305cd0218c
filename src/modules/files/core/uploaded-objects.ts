// What the upload use cases ask the object store (CONTRACT §7): a signed PUT URL under a
// new blob name, and at registration whether the store holds what was signed. Bytes never
// pass through the core: the store receives them, the core only signs and checks.
import { DomainError } from '../../../core/errors.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { PendingUploadRecord } from '../../../core/ports/file-repositories.ts';
import { blobKey, type ObjectStore } from '../../../core/ports/object-store.ts';
import { IMAGE_HEAD_BYTES, isCoverImage, servedAs } from './blob-types.ts';
import { uploadError } from './upload-items.ts';

export interface UploadedObjects {
  /** The store's name in sign answers (vendor `provider`). */
  readonly provider: string;
  /** How long a signed upload URL lives (UPLOAD_URL_TTL_SECONDS). */
  readonly urlTtlSeconds: number;
  /** A new blob name with the item's extension, and its signed PUT URL binding size, MD5 and the served type. */
  signUpload(projectId: string, item: { extension: string; size: number; md5: string }, now: Date): Promise<{ blobName: string; url: string }>;
  /** What the store holds must be what was signed: the object exists, with that size and MD5. */
  verifyObject(projectId: string, pending: PendingUploadRecord): Promise<void>;
  /**
   * A cover or crop thumbnail is served inline as an image: its stored bytes must start
   * with the signature of the image type its extension names (PNG; JPEG for jpg/jpeg),
   * read through the store. Otherwise 400 naming the file; nothing is recorded.
   */
  verifyCoverImage(projectId: string, pending: PendingUploadRecord): Promise<void>;
}

export function createUploadedObjects(deps: {
  ids: Ids;
  objectStore: Pick<ObjectStore, 'provider' | 'signUpload' | 'stat' | 'readHead'>;
  uploadUrlTtlSeconds: number;
}): UploadedObjects {
  const { ids, objectStore } = deps;
  const notUploaded = (p: PendingUploadRecord) => uploadError('blob-not-uploaded', `Nothing was uploaded for ${p.blobName}`, p.blobName);
  return {
    provider: objectStore.provider,
    urlTtlSeconds: deps.uploadUrlTtlSeconds,

    async signUpload(projectId, c, now) {
      const blobName = `${ids.uuid()}.${c.extension}`;
      const signed = await objectStore.signUpload(
        {
          key: blobKey(projectId, blobName), size: c.size, md5Hex: c.md5, contentType: servedAs(c.extension).contentType,
          expiresInSeconds: deps.uploadUrlTtlSeconds,
        },
        now,
      );
      return { blobName, url: signed.url };
    },

    async verifyObject(projectId, pending) {
      const info = await objectStore.stat(blobKey(projectId, pending.blobName));
      if (!info) throw notUploaded(pending);
      if (info.size !== pending.size) {
        throw uploadError('blob-mismatch', `The uploaded object has ${info.size} bytes, ${pending.size} were signed`, pending.blobName);
      }
      // Stores that do not know the MD5 checked the signed Content-MD5 when they received the bytes.
      if (info.md5Hex !== null && info.md5Hex.toLowerCase() !== pending.md5) {
        throw uploadError('blob-mismatch', 'The uploaded object does not have the signed MD5', pending.blobName);
      }
    },

    async verifyCoverImage(projectId, pending) {
      const head = await objectStore.readHead(blobKey(projectId, pending.blobName), IMAGE_HEAD_BYTES);
      if (!head) throw notUploaded(pending);
      if (!isCoverImage(pending.extension, head)) {
        const kind = pending.extension === 'png' ? 'PNG' : 'JPEG';
        throw new DomainError('invalid', 'cover-not-an-image', `${pending.name} (${pending.blobName}) is not a ${kind} image`, {
          blobName: pending.blobName, name: pending.name,
        });
      }
    },
  };
}
