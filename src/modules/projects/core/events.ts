// The projects module's domain events (src/core/events/domain-events.ts ModuleEventData, by
// declaration merging); their invalidation rows are in its contract (module.ts). The files
// module publishes project.cover-changed (a cover registered); the webhooks module delivers
// the others (src/modules/webhooks/core/webhook-events.ts).
import type { ProjectIds } from '../../../core/events/domain-events.ts';

declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    'project.created': ProjectIds & { subscriptionId: string; ownerId: string; rootWorkzoneId: string };
    /** `fields` names what changed (name, description, location, spatialReference, coverBlobName, subscriptionId, ownerId). */
    'project.updated': ProjectIds & { fields: string[]; ownerId: string; subscriptionId: string };
    'project.deleted': ProjectIds & { permanent: boolean };
    'project.restored': ProjectIds;
    'project.cover-changed': ProjectIds;
  }
}

/** The projects module's event types. */
export type ProjectChangeEventType = 'project.created' | 'project.updated' | 'project.deleted' | 'project.restored' | 'project.cover-changed';
