// What a module's job kind implements (the job runner, src/modules/jobs, runs it), and the job
// it is handed: a port of the kernel so that the module descriptor's type (modules.ts) names it
// without importing the jobs module, which is itself a module.
import type { Repos } from './repositories.ts';
import type { FilesRepos } from './file-repositories.ts';

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface JobRecord {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  result: unknown;
  subjects: string[];
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type JobOutcome = { state: 'done'; result: unknown } | { state: 'failed'; error: string };

/**
 * The repositories a job's finish step is handed besides the kernel's. A module adds its own by
 * declaration merging (the mail module its outbox, `src/modules/mail/core/ports.ts`, so that the
 * step mails the requester in the same transaction), as modules add their events and codes: the
 * kernel names no module.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface JobFinishRepos {}

export interface JobHandler {
  run(job: JobRecord): Promise<unknown>;
  /** Called once when the job has failed for good, after job.finished committed. */
  failed?(job: JobRecord, error: string): Promise<void>;
  /** The account whose administrators may see the job's job.finished event (null or absent: a system job). */
  accountOf?(job: JobRecord): string | null;
  /**
   * Runs in the transaction that records the job's end and publishes job.finished: what
   * follows from the end (the requester's mail) commits with it, once, on the node that ran it.
   */
  finished?(repos: Pick<Repos & FilesRepos, 'events' | 'files' | 'users'> & JobFinishRepos, job: JobRecord, outcome: JobOutcome): Promise<void>;
}
