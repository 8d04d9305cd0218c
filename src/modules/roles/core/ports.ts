// Repository port of the roles of an account (spec "Role"): custom roles and the base roles
// every account gets.

export interface RoleRecord {
  id: string;
  api1Id: string;
  accountId: string;
  name: string;
  description: string;
  color: string | null;
  permissions: string[];
  legacyPermissions: string[];
  isBase: boolean;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type RoleFields = Pick<RoleRecord, 'name' | 'description' | 'color' | 'permissions' | 'legacyPermissions'>;

export interface RolesRepo {
  byRef(accountId: string, ref: { uuid: string } | { api1Id: string }): Promise<RoleRecord | null>;
  listByAccount(accountId: string): Promise<RoleRecord[]>;
  insert(r: Omit<RoleRecord, 'api1Id' | 'createdAt' | 'updatedAt'>, now: Date): Promise<RoleRecord>;
  update(id: string, fields: RoleFields, now: Date): Promise<RoleRecord>;
  remove(id: string): Promise<void>;
  /** Ids of the projects where the role is held by a member. */
  usage(roleId: string): Promise<string[]>;
}

/** The roles module's repositories (every executor of the node's store carries them). */
export interface RolesRepos {
  roles: RolesRepo;
}
