// The users module's repository ports (their SQL: ../postgres/): the one-time links that set a
// password (invitations and resets), the pending invitations to accounts, and the windowed
// counters of the invitation caps. The users themselves (UsersRepo, UserRecord) stay in the
// kernel's ports/repositories.ts: the bearer check, the token service, the seeder and most
// modules read them.
import type { AccountRole } from '../../../core/ports/repositories.ts';

export interface InvitationRecord {
  tokenHash: string;
  userId: string;
  accountId: string | null;
  expiresAt: Date;
  usedAt: Date | null;
  /** 'set-password': the user has no password (an invitation, `admin reset-password`); 'reset': forgot password. */
  purpose: InvitationPurpose;
}

export type InvitationPurpose = 'set-password' | 'reset';

export interface InvitationsRepo {
  insert(i: Omit<InvitationRecord, 'usedAt' | 'purpose'> & { purpose?: InvitationPurpose }, now: Date): Promise<void>;
  byTokenHash(tokenHash: string): Promise<InvitationRecord | null>;
  /** Marks it used in one conditional statement; null when unknown, used or expired. */
  consume(tokenHash: string, now: Date): Promise<InvitationRecord | null>;
  /** Marks every unused link of this purpose of the user used (a password was just set). */
  spendUnused(userId: string, purpose: InvitationPurpose, now: Date): Promise<void>;
}

/**
 * An invitation to join an account, pending until the user accepts it (docs/security.md
 * "Invitations"): until then he is no member, and the account sees of him only `email`.
 */
export interface AccountInvitationRecord {
  accountId: string;
  userId: string;
  /** The address as the inviter wrote it. */
  email: string;
  /** The account roles accepting gives. */
  roles: AccountRole[];
  invitedBy: string | null;
  invitedAt: Date;
}

export interface AccountInvitationsRepo {
  get(accountId: string, userId: string): Promise<AccountInvitationRecord | null>;
  /** The account's pending invitations, oldest first. */
  listForAccount(accountId: string): Promise<AccountInvitationRecord[]>;
  /** The user's pending invitations with each account's name, oldest first. */
  listForUser(userId: string): Promise<(AccountInvitationRecord & { accountName: string })[]>;
  /** Inserts the invitation, or sets the roles (and the address) of the pending one. */
  put(invitation: AccountInvitationRecord): Promise<void>;
  /** Deletes the pending invitation and answers it; null when there was none. */
  take(accountId: string, userId: string): Promise<AccountInvitationRecord | null>;
}

/**
 * Counts over a fixed window that starts with the first charge (windowed_counters): the
 * invitation caps (docs/security.md "Invitations").
 */
export interface CountersRepo {
  /**
   * Adds `amount` to the key's count in one conditional UPSERT (row-locked: concurrent
   * charges on every node count one after the other), unless that would pass `max`. A key
   * whose window ended at or before `now` starts a new one, `now` to `windowEnd`. Answers
   * whether it was charged, and when the key's window ends.
   */
  charge(key: string, amount: number, p: { now: Date; windowEnd: Date; max: number }): Promise<{ charged: boolean; windowEnd: Date }>;
}

/** The users module's repositories, by name: every transaction's repos carry them (src/adapters/postgres/store.ts). */
export interface UsersRepos {
  invitations: InvitationsRepo;
  accountInvitations: AccountInvitationsRepo;
  counters: CountersRepo;
}
