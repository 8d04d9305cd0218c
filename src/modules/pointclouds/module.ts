// The pointclouds module's descriptor (src/core/modules.ts; docs/point-clouds.md "The
// module"): every registered E57, LAS, LAZ or PLY file is converted to COPC by a job
// (intake task + job handler), its progress and the COPC output by range are served
// (PointClouds). Listed after `jobs` in src/compose.ts (it queues jobs).
import path from 'node:path';
import type { FeatureModule } from '../../core/modules.ts';
import type { Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import type { Logger } from '../../core/ports/telemetry.ts';
import type { JobRunner } from '../../core/jobs/index.ts';
import type { ProjectAccess } from '../../core/projects/index.ts';
import { createPointCloudIntake, pointCloudIntakeTask, CONVERT_JOB, type PointCloudIntake } from './core/intake.ts';
import { createConversionJob } from './core/conversion-job.ts';
import { createPointClouds, type PointClouds } from './core/point-clouds.ts';
import { pointCloudObjects } from './storage/object-bytes.ts';

export interface PointCloudsNeeds {
  store: Store;
  clock: Clock;
  objectStore: ObjectStore;
  logger: Logger;
  projectAccess: ProjectAccess;
  jobRunner: JobRunner;
  /** Conversions in hand live under DATA_DIR/pointclouds (kept across a crash: the next attempt resumes there). */
  config: { dataDir: string };
}

export const pointcloudsModule: FeatureModule<PointCloudsNeeds, { pointClouds: PointClouds; pointCloudIntake: PointCloudIntake }> = {
  name: 'pointclouds',
  enqueues: [CONVERT_JOB],
  create: ({ store, clock, objectStore, logger, projectAccess, jobRunner, config }) => {
    const objects = pointCloudObjects(objectStore);
    const intake = createPointCloudIntake({ store, clock, jobRunner, logger });
    const job = createConversionJob({ store, clock, objects, workRoot: path.join(config.dataDir, 'pointclouds'), logger });
    return {
      offers: { pointClouds: createPointClouds({ store, access: projectAccess, objects }), pointCloudIntake: intake },
      jobs: { [CONVERT_JOB]: job },
      tasks: [pointCloudIntakeTask(intake)],
      // Before the job runner waits for the job in hand (modules stop in reverse order): a
      // conversion is interrupted at once and resumes from its checkpoints at the next claim.
      async stop() {
        job.abort();
      },
    };
  },
};
