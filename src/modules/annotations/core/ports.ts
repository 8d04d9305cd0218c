// The annotations module's repository port: what its use cases need from persistence, free
// of SQL (src/modules/annotations/postgres/annotations-repo.ts implements it).

export type AnnotationType = 'Private note' | 'Note' | 'Issue' | 'Resolved';
export const ANNOTATION_TYPES: readonly AnnotationType[] = ['Private note', 'Note', 'Issue', 'Resolved'];

export interface Point3D {
  x: number;
  y: number;
  z: number;
}

/** What a create or a PUT writes (PUT overwrites every field: a missing optional one is null). */
export interface AnnotationFields {
  workzoneId: string;
  annotationType: AnnotationType;
  title: string;
  description: string | null;
  /** `YYYY-MM-DD`. */
  dueDate: string | null;
  priority: number | null;
  position: Point3D;
  normal: Point3D | null;
  imgBlobName: string | null;
  savedView: Record<string, unknown> | null;
  modelElementGUIDs: string[] | null;
  labels: string[];
  /** User ids, in the order given. */
  assignedTo: string[];
}

export interface AnnotationRecord extends AnnotationFields {
  id: string;
  projectId: string;
  number: number;
  createdAt: Date;
  createdBy: string | null;
  updatedAt: Date;
  updatedBy: string | null;
}

export interface AnnotationCommentRecord {
  id: string;
  annotationId: string;
  description: string;
  createdAt: Date;
  createdBy: string | null;
}

/**
 * An integration link of an annotation (the integrations module writes them); `url` null: not
 * created at the third party (yet: `status` pending; or ever: failed, `failure` says why).
 */
export interface AnnotationIntegrationLink {
  annotationId: string;
  type: 'AUTODESK' | 'NEWFORMA_KONEKT' | 'PROCORE';
  url: string | null;
  status: 'pending' | 'created' | 'failed';
  failure: string | null;
}

export interface AnnotationsRepo {
  byId(projectId: string, id: string): Promise<AnnotationRecord | null>;
  /** Every annotation of the project, by number. */
  list(projectId: string): Promise<AnnotationRecord[]>;
  count(projectId: string): Promise<number>;
  /** The project's next annotation number (numbers are never reused); call under the project's annotations lock. */
  nextNumber(projectId: string): Promise<number>;
  insert(a: AnnotationRecord): Promise<void>;
  update(id: string, fields: AnnotationFields, by: string, now: Date): Promise<void>;
  remove(id: string): Promise<void>;
  /** The comments of these annotations, oldest first. */
  comments(annotationIds: string[]): Promise<AnnotationCommentRecord[]>;
  insertComment(c: AnnotationCommentRecord): Promise<void>;
  /** The integration links of these annotations, by annotation then type. */
  integrationLinks(annotationIds: string[]): Promise<AnnotationIntegrationLink[]>;
}

/** The module's repositories, as every executor of the store carries them (module.ts `repositories`). */
export interface AnnotationsRepos {
  annotations: AnnotationsRepo;
}
