// The annotations module's error codes, merged into the kernel's catalogue type
// (src/core/error-codes.ts ModuleErrorCodes); their rows (ANNOTATION_ERROR_CODES) go to the
// assembled catalogue through module.ts.
import { codeRow } from '../../../core/error-codes.ts';

export const ANNOTATION_ERROR_CODES = {
  'invalid-annotation-urn': codeRow(400, 'spec'),
  'invalid-annotation-comment-urn': codeRow(400, 'spec'),
  /** The vendor's createAnnotation: "an error 400 with error code `project-max-annotations`" past 3000 in a project. */
  'project-max-annotations': codeRow(400, 'vendor'),
  'view-annotation-forbidden': codeRow(403, 'spec'),
  'create-annotation-forbidden': codeRow(403, 'spec'),
  'update-annotation-forbidden': codeRow(403, 'spec'),
  'delete-annotation-forbidden': codeRow(403, 'spec'),
  'create-annotation-comment-forbidden': codeRow(403, 'spec'),
  'annotation-not-found': codeRow(404, 'spec'),
} as const;

type AnnotationErrorCodesRows = typeof ANNOTATION_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends AnnotationErrorCodesRows {}
}
