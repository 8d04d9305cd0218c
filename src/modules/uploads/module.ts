// The uploads module's contract (src/modules/contract.ts): multipart uploads (the API 2
// extension of docs/files.md) and their sweeper (a periodic task). Its parts: core/ (use
// cases, pure rules, the repository port), postgres/ (the repository, migration 0022),
// http/ (the API 2 routes and their operation docs).
import { defineModule } from '../contract.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { FilesRepos } from '../../core/ports/file-repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import type { CoreMetrics } from '../../core/ports/telemetry.ts';
import type { ProjectAccess } from '../projects/index.ts';
import { createCapacityCheck, type UploadSettings } from '../files/index.ts';
import { createMultipartUploads, type MultipartUploads } from './core/multipart-uploads.ts';
import { createMultipartSweeper, multipartSweep, type MultipartSweeper } from './core/sweeper.ts';
import type { MultipartUploadsRepo } from './core/records.ts';
import { multipartUploadsRepo } from './postgres/multipart-uploads-repo.ts';
import { uploadRoutes } from './http/api2-routes.ts';
import { UPLOADS_OPERATIONS } from './http/operations.ts';
import type { WorkzonesRepos } from '../workzones/index.ts';
import type { AccountsRepos } from '../accounts/index.ts';

/** The module's repository, beside the kernel's (pending uploads, files, work zones) it also uses. */
export type UploadsRepos = { multipartUploads: MultipartUploadsRepo };

export interface UploadsNeeds {
  store: Store<Repos & FilesRepos & AccountsRepos & WorkzonesRepos & UploadsRepos>;
  clock: Clock;
  ids: Ids;
  objectStore: ObjectStore;
  projectAccess: ProjectAccess;
  metrics: { core: CoreMetrics };
  config: UploadSettings;
}

export interface UploadsOffers {
  multipartUploads: MultipartUploads;
  multipartSweeper: MultipartSweeper;
}

export const uploadsModule = defineModule<UploadsNeeds, UploadsOffers, UploadsRepos>({
  name: 'uploads',
  feature: {
    name: 'uploads',
    create: ({ store, clock, ids, objectStore, projectAccess, metrics, config }) => {
      const multipartSweeper = createMultipartSweeper({ store, clock, objectStore });
      return {
        offers: {
          multipartUploads: createMultipartUploads({
            store, clock, ids, access: projectAccess, objectStore,
            checkCapacities: createCapacityCheck({ clock, storageQuotaBytes: config.storageQuotaBytes, sandbox: config.sandbox }),
            // Like a pending upload of the single-URL flow: at least as long as its URLs.
            uploadTtlSeconds: Math.max(config.uploadTtlSeconds, config.uploadUrlTtlSeconds),
            urlTtlSeconds: config.uploadUrlTtlSeconds, metrics: metrics.core,
          }),
          multipartSweeper,
        },
        tasks: [multipartSweep(multipartSweeper)],
      };
    },
  },
  repositories: { multipartUploads: multipartUploadsRepo },
  routes: { api2: uploadRoutes },
  operations: { api2: UPLOADS_OPERATIONS },
});
