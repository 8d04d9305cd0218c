// Repository ports of projects and work zones (materialised membership: the members module,
// src/modules/members/core/ports.ts).

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

