// The operation docs of the connect module's routes: API 1's two starts, and the jobs' own
// paths (RFC 9457 errors), which the API 1 document lists (src/http/operation-docs.ts).
import { API1_PROJECT_ERRORS as PROJECT, API1_PROJECT_PATH as P, INVALID_INPUT as INPUT, PROJECT_MEMBER as MEMBER, type OperationTable } from '../../../http/operation-docs.ts';

const C = '/connect/{slug}';
const SCAN_UPLOAD = '`workzone:reality-data:write` + `workzone:import-jobs-reality-data:write` on the job\'s work zone';
const UPLOAD = ['unknown-blob-name', 'blob-not-uploaded', 'blob-mismatch', 'upload-expired'] as const;

export const CONNECT_OPERATIONS: OperationTable = {
  [`POST ${P}/workzones/{workzoneId}/connect/import`]: {
    does: 'Starts a connect import into the work zone: answers `{url, slug}`; scans are then uploaded through `/connect/{slug}/files`.',
    permission: '`workzone:reality-data:write` + `workzone:import-jobs-reality-data:write` on the work zone.',
    errors: [...PROJECT, 'create-connect-import-forbidden', 'workzone-not-found'],
  },
  [`POST ${P}/workzones/{workzoneId}/connect/export`]: {
    does: 'Starts a connect export of scans (`scanIds`, or every scan of `workzoneIds`): answers `{url, slug}`; the job lists them with download URLs.',
    permission: '`workzone:export-jobs-reality-data:write` + `workzone:reality-data:read` on the work zone and on each scan\'s work zone.',
    errors: [...PROJECT, INPUT, 'create-connect-export-forbidden', 'workzone-not-found', 'file-not-found'],
  },

  // The connect jobs' own paths (RFC 9457 errors, job-surface.ts).
  [`GET ${C}`]: {
    does: 'A connect job: kind, state, scope and files (an export\'s scans with signed download URLs).',
    permission:
      `${MEMBER}; an import job: \`workzone:import-jobs-reality-data:write\` on its work zone; an export job: \`workzone:export-jobs-reality-data:read\` + \`workzone:reality-data:read\`.`,
    errors: ['connect-job-not-found', 'not-member-of-project', 'deleted-project', 'view-connect-job-forbidden'],
  },
  [`POST ${C}/files`]: {
    does: 'Signs scan uploads into an import job\'s work zone (laser scan formats only).',
    permission: `the job's view permission and ${SCAN_UPLOAD}.`,
    errors: [INPUT, 'capacity-exceeded-scan', 'storage-quota-exceeded', 'connect-job-not-found', 'view-connect-job-forbidden', 'create-file-forbidden'],
  },
  [`PUT ${C}/files`]: {
    does: 'Registers scans uploaded through an import job (as the work zone\'s bulk-files registration does).',
    permission: `the job's view permission and ${SCAN_UPLOAD}.`,
    errors: [INPUT, ...UPLOAD, 'capacity-exceeded-scan', 'connect-job-not-found', 'view-connect-job-forbidden', 'create-file-forbidden'],
  },
};
