// The accounts module's repository port (its SQL: src/modules/accounts/postgres/): accounts,
// their members' account roles and their subscriptions (migration tables accounts,
// account_members, subscriptions). Most modules read them in their transactions (projects,
// users, work zones, tags, members, groups, roles, SSO, SCIM, webhooks, the seeder): each
// declares them through this module's public face (AccountsRepos). The account's record and
// the account roles stay in the kernel: the authorizer's account scope carries them
// (src/core/ports/repositories.ts AccountRecord, src/core/ports/account-roles.ts).
import type { AccountRecord, AccountRole } from '../../../core/ports/repositories.ts';

export interface AccountMemberRecord {
  accountId: string;
  userId: string;
  roles: AccountRole[];
  invitedBy: string | null;
  invitedAt: Date | null;
}

export interface AccountsRepo {
  byId(id: string): Promise<AccountRecord | null>;
  byApi1Id(api1Id: string): Promise<AccountRecord | null>;
  byName(name: string): Promise<AccountRecord | null>;
  insert(account: Omit<AccountRecord, 'api1Id' | 'createdAt' | 'updatedAt'>, now: Date): Promise<AccountRecord>;
  update(id: string, patch: Partial<Pick<AccountRecord, 'name' | 'ownerId'>>, now: Date): Promise<void>;
  /** Accounts the user belongs to (as owner or member). */
  listForUser(userId: string): Promise<AccountRecord[]>;
  member(accountId: string, userId: string): Promise<AccountMemberRecord | null>;
  members(accountId: string): Promise<AccountMemberRecord[]>;
  /** Inserts or sets the member's account roles. */
  upsertMember(member: AccountMemberRecord): Promise<void>;
  removeMember(accountId: string, userId: string): Promise<void>;
}

export interface SubscriptionRecord {
  id: string;
  api1Id: string;
  accountId: string;
  name: string | null;
  isTrial: boolean;
  isVa: boolean;
  isActive: boolean;
  scanCapacity: number;
  tagCapacity: number;
  geoImageCapacity: number;
  start: Date | null;
  end: Date | null;
  inviteAccountOwnerInNewProjects: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface SubscriptionsRepo {
  byId(id: string): Promise<SubscriptionRecord | null>;
  byApi1Id(api1Id: string): Promise<SubscriptionRecord | null>;
  listByAccount(accountId: string): Promise<SubscriptionRecord[]>;
  insert(s: Omit<SubscriptionRecord, 'api1Id' | 'createdAt' | 'updatedAt'>, now: Date): Promise<SubscriptionRecord>;
  update(
    id: string,
    patch: Partial<Omit<SubscriptionRecord, 'id' | 'api1Id' | 'accountId' | 'createdAt' | 'updatedAt'>>,
    now: Date,
  ): Promise<void>;
}

/** The accounts module's repositories, as a store slice declares them (Store<Repos & AccountsRepos>). */
export interface AccountsRepos {
  accounts: AccountsRepo;
  subscriptions: SubscriptionsRepo;
}
