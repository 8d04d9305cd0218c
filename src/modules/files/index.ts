// The files module's public face (docs/files.md): uploads, registered files, download URLs,
// covers, the files of a work-zone copy, and the sweeper of unregistered uploads.
// Offers: Files, UploadSweeper (a periodic task), the pure format and serving rules. Its
// contract (module.ts) is listed by src/module-list.ts.
export { createFiles, FILES, downloadName, fileName, parseCategories } from './core/files.ts';
export type { Files, FileView, RegisteredFile, SignedCover, SignedFile, SignResult, TransformInput, UploadItem } from './core/files.ts';
export { UPLOADS_STORE, type RegistrationRepos, type UploadSettings, type WithinRegistration } from './core/uploads.ts';
export { createUploadSweeper, uploadSweep } from './core/upload-sweeper.ts';
export type { SweepResult, UploadSweeper } from './core/upload-sweeper.ts';
export { CATEGORIES, CATEGORY_INFO, FORMATS, formatOf } from './core/formats.ts';
export { mayDownload, WRITE as FILE_WRITE } from './core/file-permissions.ts';
// What the uploads module's multipart flow shares with the single-URL flow (src/modules/uploads).
export { checkItem, newFileRecord, pendingUploadRecord, uploadItemOf } from './core/upload-items.ts';
export { createCapacityCheck, type CheckCapacities } from './core/capacities.ts';
export { servedAs } from './core/blob-types.ts';
export type { FileEventType } from './core/events.ts';
