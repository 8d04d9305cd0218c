// The jobs module's contract (src/modules/contract.ts): this node's one job runner, its
// repository and its event. Its handlers are the ones every module declares (`jobs` of its
// parts), collected by the composition; the runner starts once every module is built and
// stops after the periodic tasks. The job handler's port and the job record are the
// kernel's (src/core/ports/job-handler.ts): module descriptors name them.
import { defineModule } from '../contract.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { FilesRepos } from '../../core/ports/file-repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { CoreMetrics, Logger } from '../../core/ports/telemetry.ts';
import { createJobRunner, type JobHandler, type JobRunner } from './core/job-runner.ts';
import type { JobsRepos } from './core/ports.ts';
import type { JobEventType } from './core/events.ts';
import { jobsRepo } from './postgres/jobs-repo.ts';
import type { MailRepos } from '../mail/index.ts';

export interface JobsNeeds {
  store: Store<Repos & FilesRepos & JobsRepos & MailRepos>;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  metrics: { core: CoreMetrics };
  /** Every module's handlers by job kind (src/core/modules.ts, Contributions). */
  jobHandlers: Readonly<Record<string, JobHandler>>;
}


const { nothing } = invalidationRules;
export const jobsModule = defineModule<JobsNeeds, { jobRunner: JobRunner }, JobsRepos, JobEventType>({
  name: 'jobs',
  feature: {
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
  },
  repositories: { jobs: jobsRepo },
  // A job's end changes nothing a cache holds (its results publish their own events).
  invalidation: { 'job.finished': nothing },
});
