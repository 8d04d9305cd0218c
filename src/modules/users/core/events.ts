// The users module's domain events (src/core/events/domain-events.ts ModuleEventData, by
// declaration merging); their invalidation rows are in its contract (module.ts).
// user.invited, user.added, user.roles-changed and user.removed stay in the kernel: SSO and
// SCIM publish them too, and the webhooks deliver them (src/modules/webhooks/core/webhook-events.ts);
// user.seeded (the seeder's), user.password-cleared (the administration command's) and
// user.signed-out-everywhere (the OAuth module's) too.
declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    /** A user declined the account's invitation (its waiting project grants went with it). */
    'user.invitation-declined': { userId: string };
    /** A user set his password through a one-time link (an invitation, or a reset); every session of his ended with it. */
    'user.password-set': { userId: string; purpose: 'set-password' | 'reset' };
    /** A password reset link was sent ("Forgot password?"). */
    'user.password-reset-requested': { userId: string };
  }
}

/** The users module's event types. */
export type UserEventType = 'user.invitation-declined' | 'user.password-set' | 'user.password-reset-requested';
