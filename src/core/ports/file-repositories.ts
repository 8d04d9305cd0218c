// Repository ports of files and pending uploads (docs/files.md); a crop's are the crops module's.
// Their SQL is the files module's (src/modules/files/postgres/), bound through its contract;
// every user declares them as FilesRepos (Store<Repos & FilesRepos>). The ports stay in the
// kernel: the projects module's API 1 details and the job handler's closing transaction read
// them, and the files module's face (its use cases) imports the projects module (a loop).
import type { Ref } from './project-repositories.ts';

export interface Vector3 {
  x: number;
  y: number;
  z: number;
}

export interface Quaternion {
  x: number;
  y: number;
  z: number;
  w: number;
}

export interface FileRecord {
  id: string;
  api1Id: string;
  projectId: string;
  workzoneId: string;
  category: string;
  formatId: number;
  name: string;
  extension: string;
  size: number;
  md5: string;
  blobName: string;
  translation: Vector3 | null;
  rotation: Quaternion | null;
  scale: Vector3 | null;
  createdAt: Date;
  createdBy: string | null;
  updatedAt: Date | null;
  updatedBy: string | null;
  importedAt: Date | null;
}

export type UploadKind = 'file' | 'project-cover' | 'crop-cover';

export interface PendingUploadRecord {
  id: string;
  blobName: string;
  projectId: string;
  workzoneId: string | null;
  cropId: string | null;
  kind: UploadKind;
  /** The file category (kind `file`), else null. */
  category: string | null;
  name: string;
  extension: string;
  size: number;
  md5: string;
  userId: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** What counts against a capacity: registered files plus live pending uploads. */
export interface CapacityCount {
  registered: number;
  pending: number;
}

export interface FilesRepo {
  byRef(projectId: string, ref: Ref): Promise<FileRecord | null>;
  byBlobName(projectId: string, blobName: string): Promise<FileRecord | null>;
  /** The crop (of the crops module) whose thumbnail is this blob, if any: a blob's read permission and whether a cover's object is still named. */
  cropThumbnail(projectId: string, blobName: string): Promise<{ cropId: string; workzoneId: string } | null>;
  /** The project's files, optionally of some categories only, oldest first. */
  list(projectId: string, categories?: string[]): Promise<FileRecord[]>;
  insert(f: Omit<FileRecord, 'api1Id' | 'updatedAt' | 'updatedBy'>): Promise<void>;
  rename(id: string, name: string, by: string, now: Date): Promise<void>;
  setTransformation(
    id: string,
    t: { translation: Vector3 | null; rotation: Quaternion | null; scale: Vector3 | null },
    by: string,
    now: Date,
  ): Promise<void>;
  remove(id: string): Promise<void>;
  /** Files of a category in every project of the subscription, registered and pending (live at `now`). */
  countInSubscription(subscriptionId: string, category: string, now: Date): Promise<CapacityCount>;
  /** Bytes of the subscription's projects: every registered file plus every live pending upload (any kind). */
  bytesInSubscription(subscriptionId: string, now: Date): Promise<number>;
  /** Files of a category the user created anywhere in the deployment, registered and pending (live at `now`). */
  countByUser(userId: string, category: string, now: Date): Promise<CapacityCount>;
  /** Takes a row lock on the subscription for the rest of the transaction (serialises capacity checks). */
  lockSubscription(subscriptionId: string): Promise<void>;
  /** Per work zone of the project (only `zoneIds` when given): scan count and total scan size. */
  scanStatsByZone(projectId: string, zoneIds?: string[]): Promise<Map<string, { scanCount: number; scanSize: number }>>;
  /**
   * scanStatsByZone (every zone) for many projects in one statement for any number of ids
   * (none for no id): by project id, then by work zone (zones without scans are absent).
   */
  scanStatsByZones(projectIds: string[]): Promise<Map<string, Map<string, { scanCount: number; scanSize: number }>>>;
}

export interface UploadsRepo {
  insert(u: PendingUploadRecord): Promise<void>;
  /** The pending upload of that blob, locked for the rest of the transaction. */
  byBlobNameForUpdate(projectId: string, blobName: string): Promise<PendingUploadRecord | null>;
  /** Live pending uploads of a kind in a project (newest first). */
  listLive(projectId: string, kind: UploadKind, now: Date): Promise<PendingUploadRecord[]>;
  remove(id: string): Promise<void>;
  /** Takes the cluster-wide sweeper lock for the rest of the transaction when free. */
  trySweeperLock(): Promise<boolean>;
  /** Expired pending uploads, locked (rows being registered are skipped). */
  claimExpired(now: Date, limit: number): Promise<PendingUploadRecord[]>;
  /** Queued object deletions (oldest first, locked), each saying whether a row names the blob again. */
  claimDeletions(limit: number): Promise<{ projectId: string; blobName: string; referenced: boolean }[]>;
  removeDeletion(projectId: string, blobName: string): Promise<void>;
}

/** The files module's repositories, as a store slice declares them (Store<Repos & FilesRepos>). */
export interface FilesRepos {
  files: FilesRepo;
  uploads: UploadsRepo;
}
