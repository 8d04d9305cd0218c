// The operation docs of the crops module's routes (src/http/operation-docs.ts): what each does,
// the permission src/modules/crops/core/crops.ts checks, the codes it answers.
import type { OperationTable } from '../../../http/operation-docs.ts';

const P = '/api/2/accounts/{accountRef}/projects/{projectRef}';
const INPUT = 'invalid-input';
/** access.project (src/core/projects/project-access.ts): a member, or project:project:list. */
const PROJECT = ['invalid-account-urn', 'account-not-found', 'invalid-project-urn', 'project-not-found', 'not-member-of-project', 'deleted-project'] as const;
const WORKZONE = ['invalid-workzone-urn', 'workzone-not-found'] as const;
const MEMBER = 'a project member (`project:workzones:list`; otherwise 403 `not-member-of-project`)';

export const CROP_OPERATIONS: OperationTable = {
  [`GET ${P}/crops`]: {
    does: 'The crops of the work zones where the caller holds `workzone:crops:read`, optionally of some work zones only.',
    permission: `${MEMBER}.`,
    errors: [...PROJECT, INPUT],
  },
  [`POST ${P}/crops`]: { does: 'Creates a crop in a work zone.', permission: '`workzone:crops:write` on the work zone.', errors: [...PROJECT, ...WORKZONE, INPUT, 'create-crop-forbidden'] },
  [`GET ${P}/crops/{cropRef}`]: { does: 'One crop.', permission: `${MEMBER} with \`workzone:crops:read\` on its work zone.`, errors: [...PROJECT, 'invalid-crop-urn', 'view-crop-forbidden', 'crop-not-found'] },
  [`PUT ${P}/crops/{cropRef}`]: {
    does: 'Overwrites a crop; a new `workzoneId` moves it.',
    permission: '`workzone:crops:write` on its work zone (and on the new one when it moves).',
    errors: [...PROJECT, ...WORKZONE, INPUT, 'invalid-crop-urn', 'update-crop-forbidden', 'crop-not-found'],
  },
  [`DELETE ${P}/crops/{cropRef}`]: { does: 'Deletes a crop.', permission: '`workzone:crops:write` on its work zone.', errors: [...PROJECT, 'invalid-crop-urn', 'delete-crop-forbidden', 'crop-not-found'] },
  [`POST ${P}/crops/{cropRef}/cover`]: {
    does: 'Signs the upload of a crop cover (png, jpg or jpeg).',
    permission: '`workzone:crops:write` on its work zone.',
    errors: [...PROJECT, INPUT, 'invalid-crop-urn', 'update-crop-forbidden', 'crop-not-found'],
  },
};
