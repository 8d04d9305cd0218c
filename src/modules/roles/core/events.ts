// The roles module's domain events (src/core/events/domain-events.ts ModuleEventData, by
// declaration merging); their invalidation rows are in its contract (module.ts).
declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    'role.created': { roleId: string };
    'role.updated': { roleId: string };
    'role.deleted': { roleId: string };
  }
}

/** The roles module's event types. */
export type RoleEventType = 'role.created' | 'role.updated' | 'role.deleted';
