// Files (CONTRACT §7, docs/files.md): the use-case groups of the files module, assembled
// for compose.ts and the HTTP layer. Bytes never pass through the core: it signs, the store
// receives, registration checks what the store holds against what was signed.
//   uploads.ts        sign → PUT to the store → register (bulk files)
//   project-files.ts  list, read, rename, delete, transform registered files
//   blob-urls.ts      3-hour download URLs of files, crop thumbnails and the cover
//   covers.ts         the project cover; crop covers for the crops module
//   file-copy.ts      the files of a work-zone copy
// with the pure rules in upload-items.ts, the limits in capacities.ts and the store checks
// in uploaded-objects.ts.
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { ObjectStore } from '../../../core/ports/object-store.ts';
import type { CoreMetrics, Logger } from '../../../core/ports/telemetry.ts';
import type { ProjectAccess, ProjectsRepos } from '../../projects/index.ts';
import type { UsageRecorder } from '../../usage/index.ts';
import { createCapacityCheck } from './capacities.ts';
import { createUploadedObjects } from './uploaded-objects.ts';
import { createUploads, type Uploads } from './uploads.ts';
import { createProjectFiles, type ProjectFiles } from './project-files.ts';
import { createBlobUrls, type BlobUrls } from './blob-urls.ts';
import { createCovers, type Covers } from './covers.ts';
import { createFileCopy, type FileCopy } from './file-copy.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

export { FILES, downloadName, fileName, parseCategories } from './upload-items.ts';
export type { RegisteredFile, SignResult, SignedFile, UploadItem } from './upload-items.ts';
export type { FileView, TransformInput } from './project-files.ts';
export type { SignedCover } from './covers.ts';

/** Every use case of the files module. */
export type Files = Uploads & ProjectFiles & BlobUrls & Covers & FileCopy;

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const FILES_STORE = storeUseOf<Repos & ProjectsRepos & FilesRepos & AccountsRepos & WorkzonesRepos>()({ reads: ['files', 'uploads', 'workzones'], writes: ['events', 'files', 'projects', 'subscriptions', 'uploads', 'users'] });

export function createFiles(deps: {
  store: SliceOf<typeof FILES_STORE, Repos & ProjectsRepos & FilesRepos & AccountsRepos & WorkzonesRepos>;
  clock: Clock;
  ids: Ids;
  access: ProjectAccess;
  objectStore: ObjectStore;
  /** Where the download URLs of scans and crops are counted (the usage module). */
  usage: UsageRecorder;
  uploadTtlSeconds: number;
  uploadUrlTtlSeconds: number;
  /** Bytes per subscription, every category (STORAGE_QUOTA_BYTES). */
  storageQuotaBytes: number;
  sandbox: boolean;
  metrics?: CoreMetrics;
  logger?: Logger;
}): Files {
  const { clock, ids, access, objectStore, logger } = deps;
  const store = sliceOf(deps.store, FILES_STORE);
  const checkCapacities = createCapacityCheck({ clock, storageQuotaBytes: deps.storageQuotaBytes, sandbox: deps.sandbox });
  const objects = createUploadedObjects({ ids, objectStore, uploadUrlTtlSeconds: deps.uploadUrlTtlSeconds });
  // A pending row outlives its URL, so an upload finished at the URL's last second can still be registered.
  const pendingTtlSeconds = Math.max(deps.uploadTtlSeconds, deps.uploadUrlTtlSeconds);
  return {
    ...createUploads({ store, clock, ids, access, objects, checkCapacities, pendingTtlSeconds, metrics: deps.metrics }),
    ...createProjectFiles({ store, clock, access, objectStore }),
    ...createBlobUrls({ store, clock, access, objectStore, usage: deps.usage }),
    ...createCovers({ store, clock, ids, access, objects, objectStore, checkCapacities, pendingTtlSeconds, logger }),
    ...createFileCopy({ ids, objectStore, checkCapacities, logger }),
  };
}
