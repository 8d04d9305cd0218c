// The API 2 shapes the console reads (the fields it uses; the service sends more).
export interface Subscription {
  id: string;
  name?: string;
  isActive: boolean;
  tagCapacity: number;
  scanCapacity: number;
  geoImageCapacity: number;
}
export interface Account {
  id: string;
  name: string;
  permissions: { isOwner: boolean; isAdmin: boolean; isManager: boolean; isProjectLister: boolean };
  subscriptions: Subscription[];
}
export interface ModificationInfo {
  isDeleted: boolean;
  deletedAt?: string;
  updatedAt?: string;
}
export interface Project {
  id: string;
  name: string;
  description: string;
  ownerId: string;
  rootWorkzoneId: string;
  permissions: string[];
  coverBlobName?: string;
  modificationInfo: ModificationInfo;
}
export interface Workzone {
  id: string;
  name: string;
  parentId: string | null;
  rootWorkzoneId: string;
}
export interface Role {
  id: string;
  name: string;
  permissions: string[];
}
export interface MemberAccess {
  member: { type: 'user' | 'group'; id: string; email?: string; name?: string };
  roleId: string;
  expirationDate: string | null;
  workzoneIds: string[];
}
export interface FileItem {
  id: string;
  type: string;
  workzoneId: string;
  name: string;
  extension: string;
  size: number;
  createdAt: string;
  blobName: string;
  translation?: Vector3 | null;
  rotation?: { x: number; y: number; z: number; w: number } | null;
  scale?: Vector3 | null;
}
export interface Vector3 {
  x: number;
  y: number;
  z: number;
}
export interface TagList {
  id: string;
  workzoneId: string;
  tagListType: string;
  name: string;
  description: string;
  color: string;
  metadataDefinition: unknown[];
  attachments: unknown[] | null;
  tagsVersion: number;
}
export interface TagData {
  id: string;
  name?: string;
  class?: string;
  boundingBox?: number[];
  orientedBoundingBox?: number[];
  [k: string]: unknown;
}
export interface Tag {
  id: string;
  data: TagData;
}
export interface Group {
  id: string;
  name: string;
  userIds: string[];
}
/** Our extension: a work-zone copy as its requester follows it (docs/projects.md "Copy"). */
export interface CopyStatus {
  jobId: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  result?: { projectId: string; workzoneId: string; copiedWorkzones: number; copiedFiles: number; skippedMembers: number };
  error?: string;
}
export interface Crop {
  id: string;
  workzoneId: string;
  name: string;
  crop: string;
  actualCrop: string;
  rotation: string;
  layers: string | null;
  cameraType: string;
  cameraState: string;
  scan: string;
  thumbnailBlobName: string | null;
  oview: number | null;
  settings: string | null;
  createdAt: string;
}
