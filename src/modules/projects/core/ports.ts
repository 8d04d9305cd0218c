// The projects module's repository port (its SQL: src/modules/projects/postgres/): projects
// (migration table projects) with their counts. Other modules read or write them in their
// transactions (files and their covers, tags, work-zone copies, activity, users, SCIM): each
// declares them through this module's public face (ProjectsRepos). The reference type `Ref`
// stays in the kernel (src/core/ports/project-repositories.ts): every repository's.
import type { Ref } from '../../../core/ports/project-repositories.ts';

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

/** The projects module's repositories, by name: every executor of the node's store carries them. */
export interface ProjectsRepos {
  projects: ProjectsRepo;
}
