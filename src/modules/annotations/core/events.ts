// The annotations module's events (docs/annotations.md "Events"), merged into the kernel's
// catalogue (src/core/events/domain-events.ts ModuleEventData); their invalidation rows are in
// module.ts. Ids and small facts only.
import type { ProjectIds } from '../../../core/events/domain-events.ts';

declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    'annotation.created': ProjectIds & { annotationId: string; workzoneId: string; annotationType: string };
    /** A PUT (every field); `workzoneId` is where the annotation is now. */
    'annotation.updated': ProjectIds & { annotationId: string; workzoneId: string; annotationType: string };
    'annotation.deleted': ProjectIds & { annotationId: string; workzoneId: string };
    /** One per user newly assigned (by a create or an update); the assignee was mailed in the same transaction. */
    'annotation.assigned': ProjectIds & { annotationId: string; workzoneId: string; userId: string };
    'annotation.commented': ProjectIds & { annotationId: string; workzoneId: string; commentId: string };
  }
}

export const ANNOTATION_EVENTS = ['annotation.created', 'annotation.updated', 'annotation.deleted', 'annotation.assigned', 'annotation.commented'] as const;
export type AnnotationEvent = (typeof ANNOTATION_EVENTS)[number];
