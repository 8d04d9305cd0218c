// The members module's repository port (its SQL: src/modules/members/postgres/members-repo.ts):
// project membership, one role and one expiration date per member per project, materialised
// per work zone (migration 0004's project_members and workzone_access). The projects module
// reads the grants when it opens a project scope, and the work zones, users, groups, SCIM
// and annotations modules write or read it in their transactions: each declares it through
// this module's public face (MembersRepos).
import type { WorkzoneGrant } from '../../../core/permissions/evaluate.ts';

export type MemberType = 'user' | 'group';

export interface ProjectMemberRecord {
  projectId: string;
  memberType: MemberType;
  memberId: string;
  roleId: string;
  expiresAt: Date | null;
}

export interface MemberAccess extends ProjectMemberRecord {
  workzoneIds: string[];
}

export interface ZoneHolds {
  ownsProject: boolean;
  rolePermissions: string[][];
}

export interface MembersRepo {
  /** A member's row with every work zone it reaches. */
  member(projectId: string, type: MemberType, id: string): Promise<MemberAccess | null>;
  upsertMember(m: ProjectMemberRecord, addedBy: string, now: Date): Promise<void>;
  grantAccess(projectId: string, type: MemberType, id: string, workzoneIds: string[]): Promise<void>;
  revokeAccess(projectId: string, type: MemberType, id: string, workzoneIds: string[]): Promise<void>;
  removeMember(projectId: string, type: MemberType, id: string): Promise<void>;
  /** Drops members left with no work zone (they are members no more). */
  dropMembersWithoutAccess(projectId: string): Promise<void>;
  /** A new zone inherits its parent's members. */
  inheritAccess(projectId: string, parentId: string, childId: string): Promise<void>;
  accessList(projectId: string): Promise<MemberAccess[]>;
  /**
   * accessList for many projects in one statement for any number of ids (none for no id):
   * each project's members in accessList's order, with the same zones, by project id (a
   * project without members is absent).
   */
  accessLists(projectIds: string[]): Promise<Map<string, MemberAccess[]>>;
  /** The user's grants in a project: his own role and his groups' roles, with their zones. */
  grantsOf(projectId: string, userId: string): Promise<WorkzoneGrant[]>;
  /**
   * The user's grants in many projects in one read, by project id (projects without grants
   * are absent), for a project list: each grant's workzoneIds holds the project's root zone
   * when the grant reaches it, and no other zone (what project-level permissions and the
   * root zone's need, rules 5–8), so the read does not grow with the projects' zones.
   */
  grantsIn(projectIds: string[], userId: string): Promise<Map<string, WorkzoneGrant[]>>;
  /**
   * grantsOf for many projects in one statement for any number of ids (none for no id), by
   * project id (projects without grants are absent): each grant with every zone it reaches,
   * what work-zone permissions need (API 1's find shows each project's readable zones).
   * Unlike grantsIn, the read grows with the zones the user reaches in those projects.
   */
  grantsWithZonesIn(projectIds: string[], userId: string): Promise<Map<string, WorkzoneGrant[]>>;
  /**
   * In one read, what gives the user rights on work zones of the account's live projects:
   * the permissions of each role reaching him there (his own or a group's, unexpired, on at
   * least one zone), and whether he owns one of those projects.
   */
  zoneHoldsInAccount(accountId: string, userId: string, now: Date): Promise<ZoneHolds>;
  /** Removes a deleted group's memberships in every project. */
  removeGroupEverywhere(groupId: string): Promise<void>;
  /** Removes a user's own memberships in every project of the account. */
  removeUserFromAccountProjects(accountId: string, userId: string): Promise<void>;
}

/** The module's repositories, as the store binds them (the projects, work zones, users, groups, SCIM and annotations use cases declare them in their slices). */
export interface MembersRepos {
  members: MembersRepo;
}
