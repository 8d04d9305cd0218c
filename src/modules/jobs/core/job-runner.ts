// Runs queued jobs on every node: each claim is one conditional UPDATE … FOR UPDATE SKIP
// LOCKED, so a job runs on one node at a time; a lease that expires (a node died) makes
// it claimable again. Failures retry with backoff; a DomainError is final.
import { eventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError } from '../../../core/errors.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { JobRecord } from '../../../core/ports/job-handler.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import { errorFields, noMetrics, silentLogger, type CoreMetrics, type Logger } from '../../../core/ports/telemetry.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { JobsRepos } from './ports.ts';

export type { JobHandler, JobOutcome } from '../../../core/ports/job-handler.ts';
import type { JobHandler, JobOutcome } from '../../../core/ports/job-handler.ts';
import type { MailRepos } from '../../mail/index.ts';

export const LEASE_MS = 5 * 60_000;

/** This node's background job runner: jobs are enqueued in the caller's transaction and run by one node each. */
export interface JobRunner {
  /** Queues a job in the caller's transaction; the local runner is kicked after commit by `kick()`. */
  enqueue(repos: JobsRepos, job: { kind: string; payload: Record<string, unknown>; subjects?: string[]; createdBy: string | null; maxAttempts?: number }): Promise<string>;
  /** Runs the queue soon, unless the runner is stopped (then only drain() or start() run jobs). */
  kick(): void;
  /** Works the queue until it is empty (one loop per node at a time). */
  drain(): Promise<void>;
  /** Starts polling for jobs on this node (once, after every handler is registered). */
  start(): void;
  /** Stops polling and waits for the job in hand; queued jobs stay for the next start (or another node). */
  stop(): Promise<void>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const JOB_RUNNER_STORE = storeUseOf<Repos & FilesRepos & JobsRepos & MailRepos>()({ reads: ['jobs'], writes: ['events', 'files', 'jobs', 'outbox', 'users'] });

export function createJobRunner(deps: {
  store: SliceOf<typeof JOB_RUNNER_STORE, Repos & FilesRepos & JobsRepos & MailRepos>;
  clock: Clock;
  ids: Ids;
  handlers: Record<string, JobHandler>;
  pollMs?: number;
  /** Where failures go: a failed attempt at warn, a failure of the runner itself at error. */
  logger?: Logger;
  metrics?: CoreMetrics;
}): JobRunner {
  const { clock, ids, handlers } = deps;
  const store = sliceOf(deps.store, JOB_RUNNER_STORE);
  const logger = deps.logger ?? silentLogger;
  const metrics = deps.metrics ?? noMetrics;
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  /** Set by stop(): the loop ends after the job in hand (a safe point), leaving the rest queued. */
  let stopping = false;
  let running: Promise<void> | null = null;
  let again = false;

  /** The job ended for good: job.finished, and the handler's own consequences, in the transaction that records it. */
  async function finish(repos: Pick<Repos & FilesRepos & MailRepos, 'events' | 'files' | 'outbox' | 'users'>, handler: JobHandler | undefined, job: JobRecord, outcome: JobOutcome, at: Date): Promise<void> {
    await repos.events.publish(eventOf('job.finished', handler?.accountOf?.(job) ?? null, subjectOf('job', job.id), {
      jobId: job.id, kind: job.kind, state: outcome.state, createdBy: job.createdBy,
    }), at);
    await handler?.finished?.(repos, job, outcome);
  }

  async function runOne(): Promise<boolean> {
    const now = clock.now();
    const job = await store.repos.jobs.claim(now, new Date(now.getTime() + LEASE_MS));
    if (!job) return false;
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new DomainError('invalid', 'unknown-job-kind', `No handler for job kind ${job.kind}`);
      const result = await handler.run(job);
      await store.transaction(async (repos) => {
        const at = clock.now();
        await repos.jobs.complete(job.id, result, at);
        await finish(repos, handler, job, { state: 'done', result }, at);
      });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const final = e instanceof DomainError || job.attempts >= job.maxAttempts;
      const retryAt = final ? null : new Date(clock.nowMs() + 1000 * 2 ** job.attempts);
      await store.transaction(async (repos) => {
        const at = clock.now();
        await repos.jobs.fail(job.id, message, retryAt, at);
        if (final) await finish(repos, handler, job, { state: 'failed', error: message }, at);
      });
      metrics.jobFailed(job.kind, final);
      logger.warn({ job: job.id, kind: job.kind, attempt: job.attempts, final, ...errorFields(e) }, 'job failed');
      if (final) {
        await handler?.failed?.(job, message).catch((err: unknown) =>
          logger.error({ job: job.id, kind: job.kind, ...errorFields(err) }, 'job failure handler failed'),
        );
      }
    }
    return true;
  }

  /** Works the queue until it is empty (one loop per node at a time). */
  function drain(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          while (!stopping && (await runOne()));
        } while (again && !stopping);
      } catch (e) {
        logger.error(errorFields(e), 'job runner failed; it retries at the next poll');
      } finally {
        running = null;
      }
    })();
    return running;
  }

  return {
    /** Queues a job in the caller's transaction; the local runner is kicked after commit by `kick()`. */
    async enqueue(
      repos: JobsRepos,
      job: { kind: string; payload: Record<string, unknown>; subjects?: string[]; createdBy: string | null; maxAttempts?: number },
    ): Promise<string> {
      const id = ids.uuid();
      await repos.jobs.enqueue(
        { id, kind: job.kind, payload: job.payload, subjects: job.subjects ?? [], createdBy: job.createdBy, maxAttempts: job.maxAttempts ?? 3 },
        clock.now(),
      );
      return id;
    },
    /** Runs the queue soon, unless the runner is stopped (then only drain() or start() run jobs). */
    kick(): void {
      if (started) setImmediate(() => void drain());
    },
    drain,
    start(): void {
      started = true;
      if (timer) return;
      timer = setInterval(() => void drain(), deps.pollMs ?? 1000);
      timer.unref();
      void drain();
    },
    /** Stops polling and waits for the job in hand; queued jobs stay for the next start (or another node). */
    async stop(): Promise<void> {
      started = false;
      clearInterval(timer);
      timer = undefined;
      stopping = true;
      try {
        await running;
      } finally {
        stopping = false;
      }
    },
  };
}
