// The groups module's repository port (its SQL: src/modules/groups/postgres/groups-repo.ts).

export interface GroupRecord {
  id: string;
  api1Id: string;
  accountId: string;
  name: string;
  description: string;
  color: string | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  userIds: string[];
}

export type GroupFields = Pick<GroupRecord, 'name' | 'description' | 'color'>;

export interface GroupsRepo {
  byRef(accountId: string, ref: { uuid: string } | { api1Id: string }): Promise<GroupRecord | null>;
  byName(accountId: string, name: string): Promise<GroupRecord | null>;
  listByAccount(accountId: string): Promise<GroupRecord[]>;
  insert(g: Omit<GroupRecord, 'api1Id' | 'createdAt' | 'updatedAt' | 'userIds'>, now: Date): Promise<GroupRecord>;
  update(id: string, fields: GroupFields, now: Date): Promise<void>;
  remove(id: string): Promise<void>;
  addMembers(groupId: string, userIds: string[], now: Date): Promise<void>;
  removeMembers(groupId: string, userIds: string[]): Promise<void>;
  /** Removes the user from every group of the account. */
  removeUserFromAccountGroups(accountId: string, userId: string): Promise<void>;
  touch(groupId: string, now: Date): Promise<void>;
}

/** The module's repositories, as the store binds them (the members, users, SSO and SCIM use cases declare them in their slices). */
export interface GroupsRepos {
  groups: GroupsRepo;
}
