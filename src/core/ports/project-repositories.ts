// Repository ports of projects, work zones and materialised membership.
import type { WorkzoneGrant } from '../permissions/evaluate.ts';

export type Ref = { uuid: string } | { api1Id: string };

export interface Location {
  lat: number;
  lng: number;
}

export interface SpatialReference {
  authName: string;
  code: string;
}

export interface ProjectRecord {
  id: string;
  api1Id: string;
  accountId: string;
  subscriptionId: string;
  name: string;
  description: string;
  ownerId: string;
  location: Location | null;
  spatialReference: SpatialReference | null;
  region: string;
  isDemo: boolean;
  rootWorkzoneId: string;
  coverBlobName: string | null;
  createdAt: Date;
  createdBy: string | null;
  updatedAt: Date;
  updatedBy: string | null;
  deletedAt: Date | null;
  deletedBy: string | null;
}

export type ProjectFields = Pick<
  ProjectRecord,
  'name' | 'description' | 'location' | 'spatialReference' | 'coverBlobName' | 'subscriptionId' | 'ownerId'
>;

export interface ProjectStats {
  workzoneCount: number;
  scanCount: number;
  scanSize: number;
  tagCount: number;
}

export interface ProjectsRepo {
  byRef(accountId: string, ref: Ref): Promise<ProjectRecord | null>;
  /** Every project of the account (listers), or those the user reaches as a member (directly or by a group). */
  list(accountId: string, filter: { all: true } | { memberUserId: string; now: Date }): Promise<ProjectRecord[]>;
  /** The project owning a work zone (API 1 find by workzoneId). */
  byWorkzone(accountId: string, workzoneRef: Ref): Promise<ProjectRecord | null>;
  insert(p: Omit<ProjectRecord, 'api1Id' | 'updatedAt' | 'updatedBy' | 'deletedAt' | 'deletedBy'>): Promise<void>;
  update(id: string, fields: ProjectFields, by: string, now: Date): Promise<void>;
  setDeleted(id: string, deleted: { at: Date; by: string } | null, now: Date): Promise<void>;
  remove(id: string): Promise<void>;
  stats(projectIds: string[]): Promise<Map<string, ProjectStats>>;
  ownedBy(userId: string, accountId: string): Promise<string[]>;
  /** Records today's access date unless already recorded (API 1 report). */
  touchAccessed(id: string, date: string): Promise<void>;
}

export interface WorkzoneRecord {
  id: string;
  api1Id: string;
  projectId: string;
  parentId: string | null;
  name: string;
  description: string;
  coverBlobName: string | null;
  createdAt: Date;
  createdBy: string | null;
  updatedAt: Date;
  updatedBy: string | null;
}

/** A zone with what its API view shows besides its own row, read together. */
export interface WorkzoneWithStats extends WorkzoneRecord {
  /** Roles present on the zone (through materialised access). */
  roleIds: string[];
  /** Registered scans in the zone itself. */
  scanCount: number;
  scanSize: number;
  /** Live tags in the zone's own tag lists. */
  tagCount: number;
}

export interface WorkzonesRepo {
  byRef(projectId: string, ref: Ref): Promise<WorkzoneRecord | null>;
  /** byRef with the zone's roles, scan and tag counts, in one query (a one-zone read). */
  withStatsByRef(projectId: string, ref: Ref): Promise<WorkzoneWithStats | null>;
  listByProject(projectId: string): Promise<WorkzoneRecord[]>;
  /**
   * listByProject for many projects in one statement for any number of ids (none for no id):
   * each project's zones in listByProject's order, by project id (a project without zones,
   * or unknown, is absent).
   */
  listByProjects(projectIds: string[]): Promise<Map<string, WorkzoneRecord[]>>;
  /** Inserts the zone and its ancestry rows (closure table) in the caller's transaction. */
  insert(w: Omit<WorkzoneRecord, 'api1Id' | 'updatedAt' | 'updatedBy'>): Promise<void>;
  update(id: string, fields: Pick<WorkzoneRecord, 'name' | 'description'>, by: string, now: Date): Promise<void>;
  /** Deletes the zone and its whole subtree. */
  removeSubtree(id: string): Promise<void>;
  /** The zone and every zone below it. */
  subtree(id: string): Promise<string[]>;
  /** The zones above it, nearest first. */
  ancestors(id: string): Promise<string[]>;
  /** Role ids present on each zone of the project (through materialised access); only `zoneIds` when given. */
  roleIdsByZone(projectId: string, zoneIds?: string[]): Promise<Map<string, string[]>>;
}

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
