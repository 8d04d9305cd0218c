// The workzones module's domain events (src/core/events/domain-events.ts ModuleEventData, by
// declaration merging); their invalidation rows are in its contract (module.ts).
import type { ProjectIds } from '../../../core/events/domain-events.ts';

declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    'workzone.created': ProjectIds & { workzoneId: string; parentId: string };
    'workzone.updated': ProjectIds & { workzoneId: string };
    /** The zone and its subtree; members left without a zone are members no more. */
    'workzone.deleted': ProjectIds & { workzoneId: string };
    /** A copy job's result: the copied subtree under `workzoneId` of the destination project. */
    'workzone.copied': ProjectIds & {
      sourceProjectId: string; sourceProjectApi1Id: string; sourceWorkzoneId: string; workzoneId: string;
      newProject: boolean; copiedWorkzones: number; copiedFiles: number;
    };
  }
}

/** The workzones module's event types. */
export type WorkzoneEventType = 'workzone.created' | 'workzone.updated' | 'workzone.deleted' | 'workzone.copied';
