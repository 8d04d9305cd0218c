// The annotations module (vendor "Annotation"): its public face. src/http, the wiring and
// other modules import it through this file only. docs/annotations.md.
export { createAnnotations } from './core/annotations.ts';
export type { AnnotationCommentView, AnnotationInput, AnnotationReadOptions, AnnotationView, Annotations } from './core/annotations.ts';
export type { AnnotationCommentRecord, AnnotationRecord, AnnotationsRepo, AnnotationType, Point3D } from './core/ports.ts';
export { ANNOTATION_TYPES } from './core/ports.ts';
export { ANNOTATION_LIMITS, MAX_ANNOTATIONS_PER_PROJECT } from './core/rules.ts';
export { annotationsModule } from './module.ts';
