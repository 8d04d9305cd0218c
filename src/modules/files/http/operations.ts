// The operation docs of the files module's routes (src/http/operation-docs.ts): what each
// does, the permission src/modules/files/core/ checks, the codes it answers.
import {
  API1_PROJECT_PATH as P1, API1_PROJECT_ERRORS as PROJECT1, API2_PROJECT_PATH as P, API2_PROJECT_ERRORS as PROJECT, API2_WORKZONE_PATH as W,
  API2_WORKZONE_ERRORS as WORKZONE, INVALID_INPUT as INPUT, PROJECT_MEMBER as MEMBER, type OperationTable,
} from '../../../http/operation-docs.ts';

/** core/file-permissions.ts WRITE (the uploads module's routes document it too, through http/index.ts). */
export const FILE_WRITE =
  'on the work zone, the write permission of the file\'s category: `workzone:reality-data:write` + `workzone:import-jobs-reality-data:write` ' +
  '(scans, geo images, sitemaps, gaussian splats), `workzone:cad-model:write` or `workzone:documents:write` (3D/CAD models), ' +
  '`workzone:model-reports:write` (model reports), `workzone:video3d:write` (360 videos), `workzone:documents:write` (documents, media, other files, archives)';
/** core/file-permissions.ts READ. */
const FILE_READ =
  'on the file\'s work zone, the read permission of its category: `workzone:reality-data:read` (scans, geo images, sitemaps, gaussian splats), ' +
  '`workzone:cad-model:read` or `workzone:documents:read` (3D/CAD models), `workzone:model-reports:read`, `workzone:video3d:read`, ' +
  '`workzone:documents:read` (documents, media, other files, archives); a crop cover: `workzone:crops:read`; ' +
  'the project cover: whoever sees the project (a member, or `project:project:list`)';
const UPLOAD = ['unknown-blob-name', 'blob-not-uploaded', 'blob-mismatch', 'upload-expired'] as const;

export const FILE_API1_OPERATIONS: OperationTable = {
  [`GET ${P1}/files`]: {
    does: 'The files of the project in the work zones where the caller holds `workzone:workzones:read`, optionally of some categories (`category=scan,model`).',
    permission: `${MEMBER}.`,
    errors: [...PROJECT1, INPUT],
  },
};

export const FILE_API2_OPERATIONS: OperationTable = {
  // Values.
  'GET /api/2/values/formats': {
    does: `The file formats: extension, format id and category (scan, model, geoImage, document, …); a file's category comes from its extension. A fixed list, the same for every caller.`,
    errors: [],
  },

  // The project cover.
  [`POST ${P}/cover`]: {
    does: 'Signs the upload of a project cover (png, jpg or jpeg): answers the URL to PUT the image to.',
    permission: '`project:project:update-details`.',
    errors: [...PROJECT, INPUT, 'update-project-forbidden'],
  },
  [`PUT ${P}/cover`]: {
    does: 'Registers the uploaded project cover (the object must exist with the signed size and MD5, and be an image); the previous cover is deleted.',
    permission: '`project:project:update-details`.',
    errors: [...PROJECT, INPUT, ...UPLOAD, 'cover-not-an-image', 'update-project-forbidden'],
  },

  // Files (docs/files.md).
  [`POST ${W}/bulk-files`]: {
    does: 'Signs the uploads of many files into a work zone: answers a URL per file to PUT the bytes to (with Content-MD5). When every item carries its `blobName`, registers them instead (as PUT does).',
    permission: `${FILE_WRITE}.`,
    errors: [...PROJECT, ...WORKZONE, INPUT, ...UPLOAD, 'capacity-exceeded-scan', 'capacity-exceeded-geoimage', 'storage-quota-exceeded', 'create-file-forbidden'],
  },
  [`PUT ${W}/bulk-files`]: {
    does: 'Registers uploaded files in a work zone: each object must exist with its signed size and MD5; all or nothing, idempotent per blob.',
    permission: `${FILE_WRITE}.`,
    errors: [...PROJECT, ...WORKZONE, INPUT, ...UPLOAD, 'capacity-exceeded-scan', 'capacity-exceeded-geoimage', 'create-file-forbidden'],
  },
  [`GET ${P}/files`]: {
    does: 'The files of the project in the work zones where the caller holds `workzone:workzones:read`, optionally of some categories (`category=scan,model`).',
    permission: `${MEMBER}.`,
    errors: [...PROJECT, INPUT],
  },
  [`GET ${P}/files/{fileRef}`]: { does: 'One file.', permission: `${MEMBER} with \`workzone:workzones:read\` on the file's work zone.`, errors: [...PROJECT, 'invalid-file-urn', 'view-file-forbidden', 'file-not-found'] },
  [`PATCH ${P}/files/{fileRef}`]: {
    does: 'Renames a file.',
    permission: `${FILE_WRITE.replace('on the work zone', "on the file's work zone")}.`,
    errors: [...PROJECT, INPUT, 'invalid-file-urn', 'update-file-forbidden', 'file-not-found'],
  },
  [`DELETE ${P}/files/{fileRef}`]: {
    does: 'Deletes a file and its stored objects.',
    permission: `${FILE_WRITE.replace('on the work zone', "on the file's work zone")}.`,
    errors: [...PROJECT, 'invalid-file-urn', 'delete-file-forbidden', 'file-not-found'],
  },
  [`POST ${P}/files/bulk-transformation`]: {
    does: 'Moves, rotates or scales files (all or nothing); scaling only where the category allows it.',
    permission:
      'on each file\'s work zone: `workzone:reality-data:transform` (scans, geo images, gaussian splats), `workzone:cad-model:transform` (models), `workzone:video3d:write` (360 videos).',
    errors: [...PROJECT, INPUT, 'update-file-forbidden', 'file-not-found'],
  },
  [`GET ${P}/blobs/{blobName}`]: {
    does: 'Downloads a stored object of the project: 302 to a signed URL valid 3 hours.',
    permission: `a file or crop cover: ${MEMBER}, and ${FILE_READ}.`,
    errors: [...PROJECT, 'view-file-forbidden', 'view-crop-forbidden', 'blob-not-found'],
  },
  [`POST ${P}/blobs`]: {
    does: 'Signed download URLs (valid 3 hours) of many stored objects of the project.',
    permission: `for each object: a file or crop cover: ${MEMBER}, and ${FILE_READ}.`,
    errors: [...PROJECT, INPUT, 'view-file-forbidden', 'view-crop-forbidden', 'blob-not-found'],
  },
};
