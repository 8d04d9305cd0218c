// The jobs module's descriptor (src/core/modules.ts): this node's one job runner. Its
// handlers are the ones every module declares (`jobs` of its parts), collected by the
// composition; the runner starts once every module is built and stops after the periodic tasks.
import type { FeatureModule } from '../modules.ts';
import type { Store } from '../ports/repositories.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { CoreMetrics, Logger } from '../ports/telemetry.ts';
import { createJobRunner, type JobHandler, type JobRunner } from './job-runner.ts';

export interface JobsNeeds {
  store: Store;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  metrics: { core: CoreMetrics };
  /** Every module's handlers by job kind (src/core/modules.ts, Contributions). */
  jobHandlers: Readonly<Record<string, JobHandler>>;
}

export const jobsModule: FeatureModule<JobsNeeds, { jobRunner: JobRunner }> = {
  name: 'jobs',
  create: ({ store, clock, ids, logger, metrics, jobHandlers }) => {
    const jobRunner = createJobRunner({ store, clock, ids, handlers: jobHandlers, logger, metrics: metrics.core });
    return {
      offers: { jobRunner },
      async start() {
        jobRunner.start();
      },
      stop: () => jobRunner.stop(),
    };
  },
};
