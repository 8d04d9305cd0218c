// The measurements module's repository port (src/modules/measurements/postgres implements it).
import type { Point3D } from '../../annotations/index.ts';

export type MeasurementKind = 'distance' | 'polyline' | 'area' | 'height';
export const MEASUREMENT_KINDS: readonly MeasurementKind[] = ['distance', 'polyline', 'area', 'height'];

export interface MeasurementFields {
  workzoneId: string;
  name: string;
  kind: MeasurementKind;
  /** In project coordinates (metres, z up). */
  points: Point3D[];
  cameraState: string | null;
  /** A scan file of the project the points were picked on, or null. */
  scanId: string | null;
}

export interface MeasurementRecord extends MeasurementFields {
  id: string;
  projectId: string;
  createdAt: Date;
  createdBy: string | null;
  updatedAt: Date;
  updatedBy: string | null;
}

export interface MeasurementsRepo {
  byId(projectId: string, id: string): Promise<MeasurementRecord | null>;
  /** Every measurement of the project, oldest first. */
  list(projectId: string): Promise<MeasurementRecord[]>;
  count(projectId: string): Promise<number>;
  insert(m: MeasurementRecord): Promise<void>;
  update(id: string, f: MeasurementFields, by: string, now: Date): Promise<void>;
  remove(id: string): Promise<void>;
}

/** The module's repositories, as every executor of the store carries them (module.ts `repositories`). */
export interface MeasurementsRepos {
  measurements: MeasurementsRepo;
}
