// The operation docs of the crops module's routes (src/http/operation-docs.ts): what each does,
// the permission src/modules/crops/core/crops.ts checks, the codes it answers.
import { API2_PROJECT_ERRORS as PROJECT, API2_PROJECT_PATH as P, API2_WORKZONE_ERRORS as WORKZONE, INVALID_INPUT as INPUT, PROJECT_MEMBER as MEMBER, type OperationTable } from '../../../http/operation-docs.ts';


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
