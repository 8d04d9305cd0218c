// The connect module's domain events (src/core/events/domain-events.ts ModuleEventData, by
// declaration merging); their invalidation rows are in its contract (module.ts).
import type { ProjectIds } from '../../../core/events/domain-events.ts';

declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    /** A connect job was opened (its slug, a capability, is not in the event). */
    'connect-job.created': ProjectIds & { connectJobId: string; kind: 'import' | 'export'; workzoneId: string };
    /** An import job received its files. */
    'connect-job.received': ProjectIds & { connectJobId: string; fileCount: number };
  }
}

/** The connect module's event types. */
export type ConnectEventType = 'connect-job.created' | 'connect-job.received';
