// The files module's domain events (src/core/events/domain-events.ts ModuleEventData, by
// declaration merging); their invalidation rows are in its contract (module.ts). The uploads
// and mesh-export modules publish file.registered too. project.cover-changed stays in the
// kernel with the project's other events.
import type { ProjectIds } from '../../../core/events/domain-events.ts';

declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    'file.registered': ProjectIds & { fileId: string; workzoneId: string; category: string };
    /** Renamed (`name`) or placed (`transformation`). */
    'file.updated': ProjectIds & { fileId: string; workzoneId: string; fields: ('name' | 'transformation')[] };
    'file.deleted': ProjectIds & { fileId: string; workzoneId: string; category: string };
  }
}

/** The files module's event types. */
export type FileEventType = 'file.registered' | 'file.updated' | 'file.deleted';
