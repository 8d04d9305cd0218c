// The operation docs of the annotations module's routes (src/http/operation-docs.ts): what each
// does, the permission src/modules/annotations/core/annotations.ts checks, the codes it answers.
import { API2_PROJECT_ERRORS as PROJECT, API2_PROJECT_PATH as P, API2_WORKZONE_ERRORS as WORKZONE, INVALID_INPUT as INPUT, PROJECT_MEMBER as MEMBER, type OperationTable } from '../../../http/operation-docs.ts';

const A = `${P}/annotations/{annotationRef}`;

export const ANNOTATION_OPERATIONS: OperationTable = {
  [`GET ${P}/annotations`]: {
    does: 'The annotations on the work zones where the caller holds `workzone:annotations:read`, by number (a "Private note" only to its author); ' +
      '`includeComments=true` adds each one\'s comments, `includeAttachments=true` an empty attachments list (attachments are not stored); otherwise those fields are null.',
    permission: `${MEMBER}; annotations of zones without \`workzone:annotations:read\` are left out.`,
    errors: [...PROJECT],
  },
  [`POST ${P}/annotations`]: {
    does: 'Creates an annotation on a work zone, numbered in the project. Each assignee must be a member of the zone and is mailed. At most 3000 annotations per project.',
    permission: '`workzone:annotations:write` on the work zone.',
    errors: [...PROJECT, ...WORKZONE, INPUT, 'invalid-user-urn', 'create-annotation-forbidden', { code: 'project-max-annotations', when: '3000 annotations in the project' }],
  },
  [`GET ${A}`]: {
    does: 'One annotation, with its comments when `includeComments=true`.',
    permission: `${MEMBER} with \`workzone:annotations:read\` on its work zone.`,
    errors: [...PROJECT, 'invalid-annotation-urn', 'view-annotation-forbidden', 'annotation-not-found'],
  },
  [`PUT ${A}`]: {
    does: 'Overwrites every field of an annotation (a missing optional one becomes null); users newly assigned are mailed. `workzoneId` (our extension) moves it.',
    permission: '`workzone:annotations:write` on its work zone (and on the new one when it moves).',
    errors: [...PROJECT, ...WORKZONE, INPUT, 'invalid-annotation-urn', 'invalid-user-urn', 'update-annotation-forbidden', 'annotation-not-found'],
  },
  [`DELETE ${A}`]: {
    does: 'Deletes an annotation and its comments.',
    permission: '`workzone:annotations:write` on its work zone.',
    errors: [...PROJECT, 'invalid-annotation-urn', 'delete-annotation-forbidden', 'annotation-not-found'],
  },
  [`POST ${A}/comments`]: {
    does: 'Adds a comment to an annotation (at most 1000 per annotation).',
    permission: '`workzone:annotations:write` on its work zone.',
    errors: [...PROJECT, INPUT, 'invalid-annotation-urn', 'create-annotation-comment-forbidden', 'annotation-not-found'],
  },
};
