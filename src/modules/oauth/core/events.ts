// The oauth module's domain events (src/core/events/domain-events.ts ModuleEventData, by
// declaration merging); their invalidation rows are in its contract (module.ts). SCIM publishes
// user.signed-out-everywhere too (a deactivated user's sessions end). signing-keys.rotated stays
// in the kernel: restoring a snapshot (src/adapters/snapshots) publishes it, and the signing
// keys' cache scope is the kernel's (cacheScope.signingKeys).
declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    /** The user ended every session of his ("sign out everywhere"): his tokens issued until now are refused. */
    'user.signed-out-everywhere': { userId: string };
  }
}

/** The oauth module's event types. */
export type OauthEventType = 'user.signed-out-everywhere';
