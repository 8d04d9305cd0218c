// The operation docs of the pointclouds module's API 2 routes (src/http/operation-docs.ts shape).
import { API2_PROJECT_ERRORS as PROJECT, API2_PROJECT_PATH as P, PROJECT_MEMBER as MEMBER, type OperationTable } from '../../../http/operation-docs.ts';


export const POINT_CLOUD_OPERATIONS: OperationTable = {
  [`GET ${P}/files/{fileRef}/point-cloud`]: {
    does: 'A point-cloud file\'s (E57, LAS, LAZ, PLY) conversion to COPC (our extension): state (pending, queued, converting, done, failed), phase, points read, percent, ETA, the failure\'s reason and message, and once done the point count, bounds and the COPC output\'s URL.',
    permission: `${MEMBER} with \`workzone:workzones:read\` on the file's work zone.`,
    errors: [...PROJECT, 'invalid-file-urn', 'view-file-forbidden', 'file-not-found', 'point-cloud-not-found'],
  },
  [`GET ${P}/files/{fileRef}/point-cloud/copc`]: {
    does: 'The COPC output of a converted point cloud, by byte range (our extension): one range answers 206 with Content-Range; a range outside the object 416 with `Content-Range: bytes */size`; none, several or a malformed one 200 with the whole object; If-Range and If-None-Match on its ETag.',
    permission:
      `${MEMBER} with \`workzone:workzones:read\` and, on the file's work zone, the read permission of its category: ` +
      '`workzone:reality-data:read` (scans: E57, LAS, LAZ; gaussian splats: PLY).',
    errors: [...PROJECT, 'invalid-file-urn', 'view-file-forbidden', 'file-not-found', 'point-cloud-not-found', 'point-cloud-not-ready', 'range-not-satisfiable'],
  },
};
