// The files module's contract (src/modules/contract.ts): uploads, registered files, download
// URLs, covers, the files of a work-zone copy and the sweeper of expired unregistered uploads
// (a periodic task); its repositories' SQL, the routes of both APIs and the local-disk store's signed URLs (/_blobs),
// their operation docs, its events (with the caches they make stale) and error codes.
import { defineModule } from '../contract.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import type { CoreMetrics, Logger } from '../../core/ports/telemetry.ts';
import type { UsageRecorder } from '../usage/index.ts';
import type { FilesRepos } from '../../core/ports/file-repositories.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { ProjectAccess, ProjectsRepos } from '../projects/index.ts';
import type { WorkzonesRepos } from '../workzones/index.ts';
import type { AccountsRepos } from '../accounts/index.ts';
import { createFiles, type Files } from './core/files.ts';
import type { UploadSettings } from './core/uploads.ts';
import { createUploadSweeper, uploadSweep, type UploadSweeper } from './core/upload-sweeper.ts';
import type { FileEventType } from './core/events.ts';
import { FILE_ERROR_CODES } from './core/errors.ts';
import { filesRepo, uploadsRepo } from './postgres/files-repo.ts';
import { fileRoutes as api1Routes } from './http/api1.ts';
import { fileRoutes as api2Routes } from './http/api2.ts';
import { blobRoutes } from './http/blobs.ts';
import { FILE_API1_OPERATIONS, FILE_API2_OPERATIONS } from './http/operations.ts';

export interface FilesNeeds {
  /** The workzones module's repository too: uploads and files resolve their zone. */
  store: Store<Repos & FilesRepos & ProjectsRepos & AccountsRepos & WorkzonesRepos>;
  clock: Clock;
  ids: Ids;
  objectStore: ObjectStore;
  projectAccess: ProjectAccess;
  usageRecorder: UsageRecorder;
  logger: Logger;
  metrics: { core: CoreMetrics };
  config: UploadSettings;
}

const { contents, withLists } = invalidationRules;

export const filesModule = defineModule<FilesNeeds, { files: Files; uploadSweeper: UploadSweeper }, FilesRepos, FileEventType, keyof typeof FILE_ERROR_CODES>({
  name: 'files',
  feature: {
    name: 'files',
    create: ({ store, clock, ids, objectStore, projectAccess, usageRecorder, logger, metrics, config }) => {
      const uploadSweeper = createUploadSweeper({ store, clock, objectStore });
      return {
        offers: {
          files: createFiles({
            store, clock, ids, access: projectAccess, objectStore, usage: usageRecorder, sandbox: config.sandbox,
            uploadTtlSeconds: config.uploadTtlSeconds, uploadUrlTtlSeconds: config.uploadUrlTtlSeconds, metrics: metrics.core,
            storageQuotaBytes: config.storageQuotaBytes, logger,
          }),
          uploadSweeper,
        },
        tasks: [uploadSweep(uploadSweeper)],
      };
    },
  },
  repositories: { files: filesRepo, uploads: uploadsRepo },
  routes: {
    api1: api1Routes,
    api2: api2Routes,
    // /_blobs: the local-disk store's signed URLs, typed by the face and the object store (src/services.ts HttpServices).
    other: { plugin: blobRoutes },
  },
  operations: { api1: FILE_API1_OPERATIONS, api2: FILE_API2_OPERATIONS },
  invalidation: {
    // No access fact depends on files; a zone's read model counts its scans, and so does a
    // project list (scanCount, scanSize).
    'file.registered': withLists(contents),
    // A rename or a transformation changes no count.
    'file.updated': invalidationRules.nothing,
    'file.deleted': withLists(contents),
  },
  errorCodes: FILE_ERROR_CODES,
});
