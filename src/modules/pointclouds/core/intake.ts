// The intake of registered point clouds: migration 0023's trigger gives every E57, LAS,
// LAZ and PLY file a `pending` row in the transaction that registers it; this queues each
// pending row's conversion job, row and job in one transaction (FOR UPDATE SKIP LOCKED: one
// node queues each). It runs as a periodic task and right after a registration is heard
// (file.registered), so a node killed between the registration and the queueing loses
// nothing: the next pass, on any node, queues it.
import { sliceOf, storeUseOf, type SliceOf, type StoreEvents } from '../../../core/ports/store-slices.ts';
import type { JobRunner } from '../../jobs/index.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { PeriodicTask } from '../../../core/ports/background.ts';
import type { Logger } from '../../../core/ports/telemetry.ts';
import { errorFields } from '../../../core/ports/telemetry.ts';
import { subjectOf } from '../../../core/events/domain-events.ts';
import type { PointCloudRepos } from './ports.ts';

export const CONVERT_JOB = 'point-cloud-conversion';
/** A node killed mid-conversion leaves its lease; each claim counts an attempt. */
export const CONVERSION_ATTEMPTS = 5;
const BATCH = 50;

export interface PointCloudIntake {
  /** Queues the conversion of every pending point cloud; the number queued. */
  queuePending(): Promise<number>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const POINT_CLOUD_INTAKE_STORE = storeUseOf<PointCloudRepos>()({ reads: [], writes: ['jobs', 'pointClouds'] });

export function createPointCloudIntake(deps: {
  store: SliceOf<typeof POINT_CLOUD_INTAKE_STORE, PointCloudRepos> & StoreEvents;
  clock: Clock;
  jobRunner: JobRunner;
  logger: Logger;
}): PointCloudIntake {
  const { clock, jobRunner, logger } = deps;
  const store = sliceOf(deps.store, POINT_CLOUD_INTAKE_STORE);

  async function queuePending(): Promise<number> {
    let total = 0;
    for (;;) {
      const queued = await store.transaction(async (repos) => {
        const rows = await repos.pointClouds.claimPending(BATCH);
        for (const row of rows) {
          const jobId = await jobRunner.enqueue(repos, {
            kind: CONVERT_JOB, payload: { fileId: row.fileId }, subjects: [subjectOf('file', row.fileId)], createdBy: null,
            maxAttempts: CONVERSION_ATTEMPTS,
          });
          await repos.pointClouds.markQueued(row.fileId, jobId, clock.now());
        }
        return rows.length;
      });
      total += queued;
      if (queued < BATCH) break;
    }
    if (total) jobRunner.kick();
    return total;
  }

  // A registration on any node: queue now rather than at the next pass.
  deps.store.onEvent((event) => {
    if (event.type !== 'file.registered') return;
    queuePending().catch((e: unknown) => logger.warn(errorFields(e), 'point-cloud intake failed; the next pass retries'));
  });

  return { queuePending };
}

export function pointCloudIntakeTask(intake: PointCloudIntake): PeriodicTask {
  return {
    name: 'point-cloud-intake', everySeconds: 30, atStart: true, run: () => intake.queuePending(),
    failure: { level: 'warn', message: 'point-cloud intake failed; next pass in 30 seconds' },
  };
}
