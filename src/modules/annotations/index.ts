// The annotations module's public face (vendor "Annotation"): what other modules and the
// wiring may import from it. docs/annotations.md.
export type { AnnotationCommentView, AnnotationInput, AnnotationReadOptions, AnnotationView, Annotations } from './core/annotations.ts';
export type { AnnotationCommentRecord, AnnotationIntegrationLink, AnnotationRecord, AnnotationsRepo, AnnotationsRepos, AnnotationType, Point3D } from './core/ports.ts';
export { ANNOTATION_TYPES } from './core/ports.ts';
export { ANNOTATION_LIMITS, MAX_ANNOTATIONS_PER_PROJECT } from './core/rules.ts';
