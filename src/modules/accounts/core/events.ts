// The accounts module's domain events (src/core/events/domain-events.ts ModuleEventData, by
// declaration merging); their invalidation rows are in its contract (module.ts).
// account.seeded is the operator module's: its seeder publishes it.
declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    'subscription.updated': { subscriptionId: string; fields: string[] };
  }
}

/** The accounts module's event types. */
export type AccountEventType = 'subscription.updated';
