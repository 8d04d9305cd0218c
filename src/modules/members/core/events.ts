// The members module's domain events (src/core/events/domain-events.ts ModuleEventData, by
// declaration merging); their invalidation rows are in its contract (module.ts).
import type { ProjectIds } from '../../../core/events/domain-events.ts';
import type { MemberType } from './ports.ts';

declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    /** A member placed with a role (new, or extended to more zones, or with a new expiration date). */
    'member.added': ProjectIds & { memberType: MemberType; memberId: string; roleId: string; expiresAt: string | null };
    'member.removed': ProjectIds & { memberType: MemberType; memberId: string };
    /** A user's access was removed from a work zone (and its subtree and, if asked, its parents). */
    'member.access-removed': ProjectIds & { memberType: MemberType; memberId: string; workzoneId: string };
  }
}

/** The members module's event types. */
export type MemberEventType = 'member.added' | 'member.removed' | 'member.access-removed';
