// Download URLs of a project's blobs (CONTRACT §7): 3-hour signed URLs, after checking the
// caller may read what the blob belongs to; the store serves the bytes.
import { DomainError, invalidInput } from '../errors.ts';
import type { EntityRef } from '../ids/urn.ts';
import type { Clock } from '../ports/clock.ts';
import type { StoreReads } from '../ports/store-slices.ts';
import { blobKey, type ObjectStore } from '../ports/object-store.ts';
import { requirePermission, type Actor } from '../permissions/authorizer.ts';
import { type ProjectAccess, type ProjectScope, requireMember } from '../projects/index.ts';
import { categoryOf } from './formats.ts';
import { READ } from './file-permissions.ts';
import { extensionOfBlob, servedAs, type ServedAs } from './blob-types.ts';
import { FILES, downloadName } from './upload-items.ts';

export interface BlobUrls {
  /** GET …/blobs/{blobName}: a 3-hour download URL (the route answers 302 to it). */
  blobUrl(actor: Actor, a: EntityRef, p: EntityRef, blobName: string): Promise<string>;
  /** POST …/blobs: download URLs for many blobs (all or nothing). */
  blobUrls(actor: Actor, a: EntityRef, p: EntityRef, blobNames: string[]): Promise<{ expiresIn: number; urls: Record<string, string> }>;
}

export function createBlobUrls(deps: {
  store: StoreReads<'files'>;
  clock: Clock;
  access: Pick<ProjectAccess, 'project'>;
  objectStore: Pick<ObjectStore, 'signDownload'>;
}): BlobUrls {
  const { store, clock, access, objectStore } = deps;

  /**
   * What a blob's download URL binds, after checking the caller may read what it belongs to:
   * its key and how it is served (type by extension, never the uploader's). A file's own
   * permission first, then a crop thumbnail's (workzone:crops:read), and only then the
   * project cover: a blob that is also some crop's thumbnail never passes as a cover.
   */
  async function resolveBlob(scope: ProjectScope, blobName: string): Promise<{ key: string } & ServedAs> {
    const key = blobKey(scope.project.id, blobName);
    const file = await store.repos.files.byBlobName(scope.project.id, blobName);
    if (file) {
      requireMember(scope);
      requirePermission(scope.workzone(file.workzoneId), READ[categoryOf(file)], 'view-file-forbidden');
      return { key, ...servedAs(file.extension, downloadName(file)) };
    }
    const crop = await store.repos.files.cropThumbnail(scope.project.id, blobName);
    if (crop) {
      requireMember(scope);
      requirePermission(scope.workzone(crop.workzoneId), 'workzone:crops:read', 'view-crop-forbidden');
      return { key, ...servedAs(extensionOfBlob(blobName)) };
    }
    if (scope.project.coverBlobName === blobName) return { key, ...servedAs(extensionOfBlob(blobName)) };
    throw new DomainError('not-found', 'blob-not-found', `No blob ${blobName.slice(0, 200)} in this project`, { blobName: blobName.slice(0, 200) });
  }

  return {
    async blobUrl(actor, a, p, blobName) {
      const scope = await access.project(actor, a, p);
      const b = await resolveBlob(scope, blobName);
      return objectStore.signDownload({ ...b, expiresInSeconds: FILES.downloadTtlSeconds }, clock.now());
    },

    async blobUrls(actor, a, p, blobNames) {
      const scope = await access.project(actor, a, p);
      if (blobNames.length > FILES.maxItems) throw invalidInput(`At most ${FILES.maxItems} blobs`);
      const now = clock.now();
      const urls: Record<string, string> = {};
      for (const name of new Set(blobNames)) {
        const b = await resolveBlob(scope, name);
        urls[name] = await objectStore.signDownload({ ...b, expiresInSeconds: FILES.downloadTtlSeconds }, now);
      }
      return { expiresIn: FILES.downloadTtlSeconds, urls };
    },
  };
}
