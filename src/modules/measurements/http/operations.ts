// The operation docs of the measurements module's routes (src/http/operation-docs.ts): the
// vendor's getMeasurements and our extension's writes (docs/annotations.md "Measurements").
import { API2_PROJECT_ERRORS as PROJECT, API2_PROJECT_PATH as P, API2_WORKZONE_ERRORS as WORKZONE, INVALID_INPUT as INPUT, PROJECT_MEMBER as MEMBER, type OperationTable } from '../../../http/operation-docs.ts';

const M = `${P}/measurements/{measurementRef}`;
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
