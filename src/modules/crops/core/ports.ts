// Repository port of crops (vendor "Crop"): saved cuts of the 3D scene, one per work zone.
// Which crop names a blob as its thumbnail is the files module's question (FilesRepo cropThumbnail).
import type { Ref } from '../../../core/ports/project-repositories.ts';

export interface CropRecord {
  id: string;
  api1Id: string;
  projectId: string;
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
  createdAt: Date;
  createdBy: string | null;
  updatedAt: Date;
  updatedBy: string | null;
}

export type CropFields = Omit<CropRecord, 'id' | 'api1Id' | 'projectId' | 'createdAt' | 'createdBy' | 'updatedAt' | 'updatedBy'>;

export interface CropsRepo {
  byRef(projectId: string, ref: Ref): Promise<CropRecord | null>;
  list(projectId: string): Promise<CropRecord[]>;
  insert(c: Omit<CropRecord, 'api1Id' | 'updatedAt' | 'updatedBy'>): Promise<void>;
  update(id: string, f: CropFields, by: string, now: Date): Promise<void>;
  remove(id: string): Promise<void>;
}

/** The crops module's repositories (every executor of the node's store carries them). */
export interface CropsRepos {
  crops: CropsRepo;
}
