// The workzones module's repository port (its SQL: src/modules/workzones/postgres/workzones-repo.ts):
// the work-zone tree of each project, with its ancestry in a closure table (migration 0004's
// workzones and workzone_ancestry). The projects module writes a new project's root zone, and
// the modules that keep content in zones (files, uploads, tags, crops, annotations,
// measurements, connect, mesh export, share links) and members resolve zones through it in
// their use cases: each declares it through this module's public face (WorkzonesRepos).
import type { Ref } from '../../../core/ports/project-repositories.ts';

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

/** The module's repositories, as the store binds them (the projects, files, members and content modules' use cases declare them in their slices). */
export interface WorkzonesRepos {
  workzones: WorkzonesRepo;
}
