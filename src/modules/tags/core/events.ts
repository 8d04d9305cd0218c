// The tags module's domain events (docs/tags.md), merged into the kernel's catalogue
// (src/core/events/domain-events.ts ModuleEventData); their invalidation rows are in its
// contract (module.ts). The P&ID module's writes publish tag-list.changed through the tag
// lists' use cases.
import { projectEventOf, subjectOf, type DomainEvent, type ProjectIds } from '../../../core/events/domain-events.ts';

declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    'tag-list.created': ProjectIds & { tagListId: string; workzoneId: string };
    /** The list's own fields (name, zone, type, definitions…); its tags change with tag-list.changed. */
    'tag-list.updated': ProjectIds & { tagListId: string; workzoneId: string };
    'tag-list.deleted': ProjectIds & { tagListId: string; workzoneId: string };
    /** The list's tags changed (a write, a move, a detection): readers holding an older tagsVersion are stale. */
    'tag-list.changed': ProjectIds & { tagListId: string; tagsVersion: number; tagCount: number; pending: boolean };
  }
}

export const TAG_EVENTS = ['tag-list.created', 'tag-list.updated', 'tag-list.deleted', 'tag-list.changed'] as const;
export type TagEventType = (typeof TAG_EVENTS)[number];

/** A tag list's tags changed: its new tagsVersion and count (tag writes, moves and detections publish the same event). */
export const tagListChanged = (
  project: { id: string; accountId: string },
  tagListId: string,
  facts: { tagsVersion: number; tagCount: number; pending: boolean },
): DomainEvent => projectEventOf('tag-list.changed', project, subjectOf('tag-list', tagListId), { tagListId, ...facts });
