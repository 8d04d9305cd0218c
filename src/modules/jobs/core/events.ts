// The jobs module's domain event (docs/architecture.md "Domain events"), merged into the
// kernel's catalogue (src/core/events/domain-events.ts ModuleEventData); its invalidation row
// is in module.ts.
import type { JobState } from '../../../core/ports/job-handler.ts';

declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    /** A background job (work-zone copy, tag detection, a conversion…) finished for good: `done`, or `failed` after its last attempt. */
    'job.finished': { jobId: string; kind: string; state: Extract<JobState, 'done' | 'failed'>; createdBy: string | null };
  }
}

export type JobEventType = 'job.finished';
