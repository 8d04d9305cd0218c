// The share-links module's events (docs/share-links.md "Events"), merged into the kernel's
// catalogue (src/core/events/domain-events.ts ModuleEventData). Ids and small facts only.
import type { ProjectIds } from '../../../core/events/domain-events.ts';

declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    'share-link.created': ProjectIds & { shareLinkId: string; workzoneId: string };
    /** A PUT (every field); `passwordChanged`: its sessions were ended. */
    'share-link.updated': ProjectIds & { shareLinkId: string; workzoneId: string; passwordChanged: boolean };
    /** The link and its sessions are gone: its next request is refused. */
    'share-link.deleted': ProjectIds & { shareLinkId: string; workzoneId: string };
  }
}

export const SHARE_LINK_EVENTS = ['share-link.created', 'share-link.updated', 'share-link.deleted'] as const;
export type ShareLinkEvent = (typeof SHARE_LINK_EVENTS)[number];
