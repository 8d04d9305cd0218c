// The jobs module's repository port (its SQL: src/modules/jobs/postgres/jobs-repo.ts): durable
// jobs claimed one at a time by any node.
import type { JobRecord } from '../../../core/ports/job-handler.ts';

export interface JobsRepo {
  enqueue(j: { id: string; kind: string; payload: Record<string, unknown>; subjects: string[]; createdBy: string | null; maxAttempts: number }, now: Date): Promise<void>;
  /** Jobs queued or running that work on any of the subjects. */
  activeOn(subjects: string[]): Promise<JobRecord[]>;
  /** Claims the oldest ready job (FOR UPDATE SKIP LOCKED), or a running one whose lease expired. */
  claim(now: Date, leaseUntil: Date): Promise<JobRecord | null>;
  /** Pushes a running job's lease forward (a long job that reports progress keeps it; no other node takes it over). */
  extendLease(id: string, leaseUntil: Date): Promise<void>;
  complete(id: string, result: unknown, now: Date): Promise<void>;
  /** Records a failed attempt: back to queued after `retryAt`, or failed for good when attempts are spent. */
  fail(id: string, error: string, retryAt: Date | null, now: Date): Promise<void>;
  byId(id: string): Promise<JobRecord | null>;
}

/** The module's repositories, as the store binds them (the modules that enqueue or follow jobs declare them in their slices). */
export interface JobsRepos {
  jobs: JobsRepo;
}
