// The operation docs of the workzones module's routes (src/http/operation-docs.ts): what each
// does, the permission src/modules/workzones/core/ checks (CONTRACT §5), the codes it answers.
import {
  API2_PROJECT_PATH as P, API2_PROJECT_ERRORS as PROJECT, API2_WORKZONE_PATH as W, API2_WORKZONE_ERRORS as WORKZONE, INVALID_INPUT as INPUT, PROJECT_MEMBER as MEMBER,
  type OperationTable,
} from '../../../http/operation-docs.ts';

export const WORKZONE_API2_OPERATIONS: OperationTable = {
  [`GET ${P}/workzones`]: { does: 'The work zones of the project.', permission: `${MEMBER}.`, errors: [...PROJECT, 'list-workzones-forbidden'] },
  [`POST ${P}/workzones`]: {
    does: 'Creates a work zone under a parent work zone; it inherits the parent\'s members.',
    permission: '`workzone:workzones:write` on the parent work zone.',
    errors: [...PROJECT, ...WORKZONE, INPUT, 'create-workzone-forbidden'],
  },
  [`GET ${W}`]: { does: 'One work zone, with the caller\'s permissions in it (`permissions`, ours).', permission: `${MEMBER} with \`workzone:workzones:read\` on the work zone.`, errors: [...PROJECT, ...WORKZONE, 'view-workzone-forbidden'] },
  [`PUT ${W}`]: { does: 'Overwrites a work zone.', permission: '`workzone:workzones:write` on the work zone.', errors: [...PROJECT, ...WORKZONE, INPUT, 'update-workzone-forbidden'] },
  [`DELETE ${W}`]: {
    does: 'Deletes a work zone with its subtree and everything in it. The root work zone cannot be deleted.',
    permission: '`workzone:workzones:write` on the work zone.',
    errors: [...PROJECT, ...WORKZONE, 'cannot-delete-root-workzone', 'delete-workzone-forbidden'],
  },
  [`POST ${W}/copy`]: {
    does: 'Copies a work zone and its subtree (files included) into a new project or under a work zone of an existing one. Asynchronous: 202, then an e-mail when done.',
    permission:
      '`workzone:workzones:read`, `workzone:reality-data:read` and `workzone:cad-model:read` on the source; `workzone:workzones:write`, `workzone:reality-data:write` and ' +
      '`workzone:cad-model:write` on the destination work zone; `account:projects:create` for a new project.',
    errors: [...PROJECT, ...WORKZONE, INPUT, 'copy-workzone-forbidden', 'copy-in-progress'],
  },
  [`GET ${W}/copy/{jobId}`]: {
    does: 'Our extension: the state of a copy of this work zone that you asked for (`queued`, `running`, `done` with the copy\'s project and work zone, `failed` with the reason the e-mail gives).',
    permission: 'the user who asked for the copy, still seeing the source project; anyone else gets 404 `job-not-found`.',
    errors: [...PROJECT, ...WORKZONE, 'job-not-found'],
  },
};
