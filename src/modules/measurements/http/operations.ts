// The operation docs of the measurements module's routes (src/http/operation-docs.ts): the
// vendor's getMeasurements and our extension's writes (docs/annotations.md "Measurements").
import type { OperationTable } from '../../../http/operation-docs.ts';

const P = '/api/2/accounts/{accountRef}/projects/{projectRef}';
const M = `${P}/measurements/{measurementRef}`;
const INPUT = 'invalid-input';
const PROJECT = ['invalid-account-urn', 'account-not-found', 'invalid-project-urn', 'project-not-found', 'not-member-of-project', 'deleted-project'] as const;
const WORKZONE = ['invalid-workzone-urn', 'workzone-not-found'] as const;
const MEMBER = 'a project member (`project:workzones:list`; otherwise 403 `not-member-of-project`)';
const OURS = 'Not in the vendor\'s API (it makes measurements in its viewer).';

export const MEASUREMENT_OPERATIONS: OperationTable = {
  [`GET ${P}/measurements`]: {
    does: 'The measurements of the work zones where the caller holds `workzone:measurements:read`, oldest first.',
    permission: `${MEMBER} with \`workzone:measurements:read\` on at least one work zone of the project.`,
    errors: [...PROJECT, 'list-measurements-forbidden'],
  },
  [`POST ${P}/measurements`]: {
    does: `Creates a distance, polyline, area or height measurement from points in project coordinates; its length, height, width (and area) are computed. ${OURS}`,
    permission: '`workzone:measurements:write` on the work zone.',
    errors: [...PROJECT, ...WORKZONE, INPUT, 'invalid-file-urn', 'create-measurement-forbidden'],
  },
  [`GET ${M}`]: {
    does: `One measurement. ${OURS}`,
    permission: `${MEMBER} with \`workzone:measurements:read\` on its work zone.`,
    errors: [...PROJECT, 'invalid-measurement-urn', 'list-measurements-forbidden', 'measurement-not-found'],
  },
  [`PUT ${M}`]: {
    does: `Overwrites a measurement; a new \`workzoneId\` moves it. ${OURS}`,
    permission: '`workzone:measurements:write` on its work zone (and on the new one when it moves).',
    errors: [...PROJECT, ...WORKZONE, INPUT, 'invalid-measurement-urn', 'invalid-file-urn', 'update-measurement-forbidden', 'measurement-not-found'],
  },
  [`DELETE ${M}`]: {
    does: `Deletes a measurement. ${OURS}`,
    permission: '`workzone:measurements:write` on its work zone.',
    errors: [...PROJECT, 'invalid-measurement-urn', 'delete-measurement-forbidden', 'measurement-not-found'],
  },
};
