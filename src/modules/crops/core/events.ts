// The crops module's domain events (src/core/events/domain-events.ts ModuleEventData, by
// declaration merging); their invalidation rows are in its contract (module.ts).
import type { ProjectIds } from '../../../core/events/domain-events.ts';

declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    'crop.created': ProjectIds & { cropId: string; workzoneId: string };
    /** Also a move: `workzoneId` is where the crop is now. */
    'crop.updated': ProjectIds & { cropId: string; workzoneId: string };
    'crop.deleted': ProjectIds & { cropId: string; workzoneId: string };
  }
}

/** The crops module's event types. */
export type CropEventType = 'crop.created' | 'crop.updated' | 'crop.deleted';
