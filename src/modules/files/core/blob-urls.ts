// Download URLs of a project's blobs (CONTRACT §7): 3-hour signed URLs, after checking the
// caller may read what the blob belongs to; the store serves the bytes. Each URL of a scan
// or of a crop's blob counts as a download in the usage report (docs/usage.md).
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import { DomainError, invalidInput } from '../../../core/errors.ts';
import type { EntityRef } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import { readsOf, storeReadsOf, type ReadsOf } from '../../../core/ports/store-slices.ts';
import { blobKey, type ObjectStore } from '../../../core/ports/object-store.ts';
import type { DownloadAction, UsageRecorder } from '../../usage/index.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import { type ProjectAccess, type ProjectScope, requireMember } from '../../projects/index.ts';
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

/** What it reads of the store (src/core/ports/store-slices.ts). */
export const BLOB_URLS_READS = storeReadsOf<FilesRepos>()(['files']);

export function createBlobUrls(deps: {
  store: ReadsOf<typeof BLOB_URLS_READS, FilesRepos>;
  clock: Clock;
  access: Pick<ProjectAccess, 'project'>;
  objectStore: Pick<ObjectStore, 'signDownload'>;
  usage: UsageRecorder;
}): BlobUrls {
  const { clock, access, objectStore, usage } = deps;
  const store = readsOf(deps.store, BLOB_URLS_READS);

  /**
   * What a blob's download URL binds, after checking the caller may read what it belongs to:
   * its key and how it is served (type by extension, never the uploader's). A file's own
   * permission first, then a crop thumbnail's (workzone:crops:read), and only then the
   * project cover: a blob that is also some crop's thumbnail never passes as a cover.
   */
  async function resolveBlob(scope: ProjectScope, blobName: string): Promise<{ key: string; counts: DownloadAction | null } & ServedAs> {
    const key = blobKey(scope.project.id, blobName);
    const file = await store.repos.files.byBlobName(scope.project.id, blobName);
    if (file) {
      requireMember(scope);
      requirePermission(scope.workzone(file.workzoneId), READ[categoryOf(file)], 'view-file-forbidden');
      return { key, counts: categoryOf(file) === 'scan' ? 'scans-downloaded' : null, ...servedAs(file.extension, downloadName(file)) };
    }
    const crop = await store.repos.files.cropThumbnail(scope.project.id, blobName);
    if (crop) {
      requireMember(scope);
      requirePermission(scope.workzone(crop.workzoneId), 'workzone:crops:read', 'view-crop-forbidden');
      return { key, counts: 'crops-downloaded', ...servedAs(extensionOfBlob(blobName)) };
    }
    if (scope.project.coverBlobName === blobName) return { key, counts: null, ...servedAs(extensionOfBlob(blobName)) };
    throw new DomainError('not-found', 'blob-not-found', `No blob ${blobName.slice(0, 200)} in this project`, { blobName: blobName.slice(0, 200) });
  }

  /** Counts the signed URLs of scans and crops as the caller's downloads on the project. */
  function record(actor: Actor, scope: ProjectScope, signed: readonly (DownloadAction | null)[], now: Date): Promise<void> {
    return usage.recordDownloads(
      signed.flatMap((action) => (action ? [{ projectId: scope.project.id, userId: actor.userId, action, count: 1 }] : [])),
      now,
    );
  }

  return {
    async blobUrl(actor, a, p, blobName) {
      const scope = await access.project(actor, a, p);
      const { counts, ...b } = await resolveBlob(scope, blobName);
      const now = clock.now();
      const url = await objectStore.signDownload({ ...b, expiresInSeconds: FILES.downloadTtlSeconds }, now);
      await record(actor, scope, [counts], now);
      return url;
    },

    async blobUrls(actor, a, p, blobNames) {
      const scope = await access.project(actor, a, p);
      if (blobNames.length > FILES.maxItems) throw invalidInput(`At most ${FILES.maxItems} blobs`);
      const now = clock.now();
      const urls: Record<string, string> = {};
      const signed: (DownloadAction | null)[] = [];
      for (const name of new Set(blobNames)) {
        const { counts, ...b } = await resolveBlob(scope, name);
        urls[name] = await objectStore.signDownload({ ...b, expiresInSeconds: FILES.downloadTtlSeconds }, now);
        signed.push(counts);
      }
      await record(actor, scope, signed, now);
      return { expiresIn: FILES.downloadTtlSeconds, urls };
    },
  };
}
