// The files module's descriptor (src/core/modules.ts): files, uploads, blob URLs, covers,
// and the sweeper of expired unregistered uploads (a periodic task).
import type { FeatureModule } from '../modules.ts';
import type { Repos, Store } from '../ports/repositories.ts';
import type { WorkzonesRepos } from '../../modules/workzones/index.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { ObjectStore } from '../ports/object-store.ts';
import type { CoreMetrics, Logger } from '../ports/telemetry.ts';
import type { ProjectAccess, ProjectsRepos } from '../../modules/projects/index.ts';
import type { UsageRecorder } from '../ports/usage.ts';
import { createFiles, type Files } from './files.ts';
import { createUploadSweeper, uploadSweep, type UploadSweeper } from './upload-sweeper.ts';
import type { AccountsRepos } from '../../modules/accounts/index.ts';

export interface FilesNeeds {
  /** The workzones module's repository too: uploads and files resolve their zone. */
  store: Store<Repos & ProjectsRepos & AccountsRepos & WorkzonesRepos>;
  clock: Clock;
  ids: Ids;
  objectStore: ObjectStore;
  projectAccess: ProjectAccess;
  usageRecorder: UsageRecorder;
  logger: Logger;
  metrics: { core: CoreMetrics };
  config: { sandbox: boolean; uploadTtlSeconds: number; uploadUrlTtlSeconds: number; storageQuotaBytes: number };
}

export const filesModule: FeatureModule<FilesNeeds, { files: Files; uploadSweeper: UploadSweeper }> = {
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
};
