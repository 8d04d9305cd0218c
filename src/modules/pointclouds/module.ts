// The pointclouds module's contract (src/modules/contract.ts; docs/point-clouds.md "The
// module"): every registered E57, LAS, LAZ or PLY file is converted to COPC by a job (an
// intake task queues the rows migration 0023's trigger writes; the job handler converts),
// its progress and the COPC output by range are served (PointClouds). Listed after `jobs`
// in src/module-list.ts (it queues jobs).
import path from 'node:path';
import type { Clock } from '../../core/ports/clock.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import type { Logger } from '../../core/ports/telemetry.ts';
import type { CacheRegistry } from '../../core/cache/registry.ts';
import type { JobRunner } from '../jobs/index.ts';
import type { ProjectAccess } from '../projects/index.ts';
import { defineModule } from '../contract.ts';
import { createPointCloudIntake, pointCloudIntakeTask, CONVERT_JOB, type PointCloudIntake } from './core/intake.ts';
import { createConversionJob } from './core/conversion-job.ts';
import { createPointClouds, type PointClouds } from './core/point-clouds.ts';
import { POINT_CLOUD_CODES } from './core/errors.ts';
import type { PointCloudsRepo, PointCloudStore } from './core/ports.ts';
import { pointCloudsRepo } from './postgres/point-clouds-repo.ts';
import { pointCloudObjects } from './adapters/object-bytes.ts';
import { COUNTED_EXTERNAL_WORKER_OLD_GENERATION_MB, copcConverter } from './adapters/converter.ts';
import { copcNodes } from './adapters/copc-nodes.ts';
import { pointCloudRoutes } from './http/routes.ts';
import { POINT_CLOUD_OPERATIONS } from './http/operations.ts';

export interface PointCloudsNeeds {
  store: PointCloudStore;
  clock: Clock;
  objectStore: ObjectStore;
  logger: Logger;
  projectAccess: ProjectAccess;
  jobRunner: JobRunner;
  /** Conversions in hand live under DATA_DIR/pointclouds (kept across a crash: the next attempt resumes there). */
  config: { dataDir: string; pointCloudCacheEntries: number; gcCountExternalMemory: boolean };
  caches: CacheRegistry;
}

export interface PointCloudsOffers {
  pointClouds: PointClouds;
  pointCloudIntake: PointCloudIntake;
}

export const pointcloudsModule = defineModule<PointCloudsNeeds, PointCloudsOffers, { pointClouds: PointCloudsRepo }, never, keyof typeof POINT_CLOUD_CODES>({
  name: 'pointclouds',
  feature: {
    name: 'pointclouds',
    enqueues: [CONVERT_JOB],
    create: ({ store, clock, objectStore, logger, projectAccess, jobRunner, config, caches }) => {
      const objects = pointCloudObjects(objectStore);
      const intake = createPointCloudIntake({ store, clock, jobRunner, logger });
      const job = createConversionJob({ store, clock, objects, converter: copcConverter({
        workerOldGenerationMb: config.gcCountExternalMemory ? COUNTED_EXTERNAL_WORKER_OLD_GENERATION_MB : undefined,
      }), workRoot: path.join(config.dataDir, 'pointclouds'), logger });
      return {
        offers: { pointClouds: createPointClouds({ store, access: projectAccess, objects, copcNodes: copcNodes(), caches, maxEntries: config.pointCloudCacheEntries }), pointCloudIntake: intake },
        jobs: { [CONVERT_JOB]: job },
        tasks: [pointCloudIntakeTask(intake)],
        // Before the job runner waits for the job in hand (modules stop in reverse order): a
        // conversion is interrupted at once and resumes from its checkpoints at the next claim.
        async stop() {
          job.abort();
        },
      };
    },
  },
  repositories: { pointClouds: pointCloudsRepo },
  routes: { api2: pointCloudRoutes },
  operations: { api2: POINT_CLOUD_OPERATIONS },
  errorCodes: POINT_CLOUD_CODES,
});
