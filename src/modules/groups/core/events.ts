// The groups module's domain events (src/core/events/domain-events.ts ModuleEventData, by
// declaration merging); their invalidation rows are in its contract (module.ts). The SCIM and
// SSO modules publish the membership ones too (provisioning, a sign-in's group rules).
declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    'group.created': { groupId: string };
    'group.updated': { groupId: string };
    'group.deleted': { groupId: string };
    /** One event per user (a call adds up to 1000: a list would not fit a NOTIFY payload). */
    'group.member-added': { groupId: string; userId: string };
    'group.member-removed': { groupId: string; userId: string };
  }
}

/** The groups module's event types. */
export type GroupEventType = 'group.created' | 'group.updated' | 'group.deleted' | 'group.member-added' | 'group.member-removed';
