// The files module's error codes (src/core/error-codes.ts ModuleErrorCodes, by declaration
// merging); their rows (FILE_ERROR_CODES) go to the assembled catalogue through module.ts.
// invalid-file-urn, file-not-found, view-file-forbidden, create-file-forbidden, upload-expired,
// blob-not-found and view-crop-forbidden stay in the kernel's catalogue: the URN parser, the
// uploads, connect, point-cloud, mesh-export and crops modules and the object stores answer them too.
import { codeRow } from '../../../core/error-codes.ts';

export const FILE_ERROR_CODES = {
  'capacity-exceeded-scan': { status: [400], defined: ['vendor', 'contract'] },
  'capacity-exceeded-geoimage': codeRow(400, 'ours'),
  'storage-quota-exceeded': codeRow(400, 'ours'),
  'cover-not-an-image': codeRow(400, 'ours'),
  'unknown-blob-name': codeRow(400, 'ours'),
  'blob-not-uploaded': codeRow(400, 'ours'),
  'blob-mismatch': codeRow(400, 'ours'),
  'update-file-forbidden': codeRow(403, 'spec'),
  'delete-file-forbidden': codeRow(403, 'spec'),
} as const;

type FileErrorCodesRows = typeof FILE_ERROR_CODES;
declare module '../../../core/error-codes.ts' {
  interface ModuleErrorCodes extends FileErrorCodesRows {}
}
