// The operation docs of the uploads module's routes (src/http/operation-docs.ts): the
// multipart extension of docs/files.md.
import { API2_PROJECT_ERRORS as PROJECT, API2_WORKZONE_ERRORS as WORKZONE, INVALID_INPUT as INPUT, type OperationTable } from '../../../http/operation-docs.ts';
import { FILE_WRITE } from '../../files/http/index.ts';

const MP = '/api/2/accounts/{accountRef}/projects/{projectRef}/workzones/{workzoneRef}/multipart-uploads';

export const UPLOADS_OPERATIONS: OperationTable = {
  [`POST ${MP}`]: {
    does: 'Starts a multipart upload of one file of 1 B to 5 TiB: answers its id, blob name, part size (the service\'s rule: 16 MiB by default, larger where the store\'s part count needs it) ' +
      'and part count. The category\'s capacity and the storage quota are reserved for the whole size until completion, abort or expiry (`UPLOAD_TTL`). The permission is checked before the body is read.',
    permission: `${FILE_WRITE}.`,
    errors: [...PROJECT, ...WORKZONE, INPUT, 'capacity-exceeded-scan', 'capacity-exceeded-geoimage', 'storage-quota-exceeded', 'create-file-forbidden'],
  },
  [`POST ${MP}/{uploadId}/part-urls`]: {
    does: 'Signs PUT URLs of 1–1000 parts, each bound to its part number, exact size and MD5 (`parts: [{partNumber, md5}]`, hex); the client PUTs each part with the answered headers. Only the user who started the upload may use it.',
    permission: `${FILE_WRITE}, and being the user who started the upload (anyone else: 404).`,
    errors: [...PROJECT, ...WORKZONE, INPUT, 'create-file-forbidden', 'upload-not-found', 'part-number-out-of-range', 'upload-expired', 'upload-already-completed'],
  },
  [`GET ${MP}/{uploadId}/parts`]: {
    does: 'The parts the store holds after part `after` (default 0), at most `limit` (≤ 1000): `{parts: [{partNumber, size, md5}], next}`, for a client resuming an upload.',
    permission: `${FILE_WRITE}, and being the user who started the upload (anyone else: 404).`,
    errors: [...PROJECT, ...WORKZONE, INPUT, 'create-file-forbidden', 'upload-not-found', 'upload-already-completed'],
  },
  [`POST ${MP}/{uploadId}/complete`]: {
    does: 'Completes a multipart upload (`{md5, partsMd5}`: the whole file\'s MD5, which may be left out where the store computes it (provider `local`), and the MD5 of the parts\' binary MD5s): every part held with its planned size and MD5, the checksums verified, ' +
      'then the object assembled at its key and the file registered as `PUT …/bulk-files` registers it. Answers 201 the registered file.',
    permission: `${FILE_WRITE}, and being the user who started the upload (anyone else: 404).`,
    errors: [...PROJECT, ...WORKZONE, INPUT, 'create-file-forbidden', 'upload-not-found', 'parts-missing', 'part-mismatch', 'multipart-checksum-mismatch',
      'upload-expired', 'upload-already-completed', 'upload-busy', 'capacity-exceeded-scan', 'capacity-exceeded-geoimage', 'storage-quota-exceeded'],
  },
  [`DELETE ${MP}/{uploadId}`]: {
    does: 'Aborts a multipart upload: the parts the store holds are removed and the reserved capacity and quota released.',
    permission: `${FILE_WRITE}, and being the user who started the upload (anyone else: 404).`,
    errors: [...PROJECT, ...WORKZONE, 'create-file-forbidden', 'upload-not-found', 'upload-already-completed'],
  },
};
