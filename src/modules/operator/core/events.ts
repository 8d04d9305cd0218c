// The operator module's domain events (src/core/events/domain-events.ts ModuleEventData, by
// declaration merging); their invalidation rows are in its contract (module.ts).
// user.seeded and user.password-cleared stay with the users' events in the kernel (their
// subject and caches are the user's); service.reset too (a snapshot's restore publishes it).
declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    /** The seed (SEED_FILE, /_operator/seed, npm run admin) created or updated the account, its members, subscriptions, roles, groups. */
    'account.seeded': { accountId: string };
  }
}

/** The operator module's event types. */
export type OperatorEventType = 'account.seeded';
