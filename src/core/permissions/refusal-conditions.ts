// The authorization refusals whose condition is a fact about the caller rather than a
// permission held in one set (docs/permissions.md "403 codes"). Each is named here, so the
// one path of every refusal, requirePermission in authorizer.ts, is also how a reader finds
// these: `grep -rn "condition('" src/core`. The use case evaluates the fact (it may need a
// query); the refusal still names the permissions the spec names for it.

/** What each named condition checks. */
export const REFUSAL_CONDITIONS = {
  /** Rule 5: the caller is a member of the project (a zone grant, or its owner); being able to list it is not enough. */
  'project-member': 'a member of the project',
  /** Rule 6: a member, or one who sees the project listed (project:project:list). */
  'project-member-or-lister': 'a member of the project, or one who may list it',
  /** The account owner (accounts' facts), for what only he may change. */
  'account-owner': 'the account owner',
  /**
   * The operation's account permission (account:users:read to list users, account:users:write
   * to invite without a role) or, instead, workzone:members:write on some work zone of the
   * account (evaluate.ts membersWriteSomewhere: one query); the refusal names what the operation always named.
   */
  'members-write-somewhere': 'the account permission, or workzone:members:write on some work zone of the account',
  /** The permission on at least one work zone of the project (listing across zones). */
  'on-some-workzone': 'the permission on at least one work zone of the project',
  /**
   * account:users:write, checked before the target is read so that a caller who could change
   * nothing learns nothing about him; the refusal names every permission the change asks for.
   */
  'users-write-before-target': 'account:users:write, checked before the target user is read',
} as const;

export type RefusalCondition = keyof typeof REFUSAL_CONDITIONS;

/** A named condition the use case evaluated: requirePermission refuses when it does not hold. */
export interface ConditionCheck {
  readonly condition: RefusalCondition;
  readonly holds: boolean;
}

export const condition = (name: RefusalCondition, holds: boolean): ConditionCheck => ({ condition: name, holds });
