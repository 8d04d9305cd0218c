// The files module (docs/files.md): uploads, registered files, download URLs, covers,
// the files of a work-zone copy, and the sweeper of unregistered uploads.
// Offers: Files, UploadSweeper (a periodic task), the pure format and serving rules.
// Needs: project access, the ObjectStore, the clock and ids.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createFiles, FILES, downloadName, fileName, parseCategories } from './files.ts';
export type { Files, FileView, RegisteredFile, SignedCover, SignedFile, SignResult, TransformInput, UploadItem } from './files.ts';
export { UPLOADS_STORE, type RegistrationRepos, type WithinRegistration } from './uploads.ts';
export { createUploadSweeper, uploadSweep } from './upload-sweeper.ts';
export type { SweepResult, UploadSweeper } from './upload-sweeper.ts';
export { CATEGORIES, CATEGORY_INFO, FORMATS, formatOf } from './formats.ts';
export { mayDownload, WRITE as FILE_WRITE } from './file-permissions.ts';
// What the uploads module's multipart flow shares with the single-URL flow (src/modules/uploads).
export { checkItem, newFileRecord, pendingUploadRecord, uploadItemOf } from './upload-items.ts';
export { createCapacityCheck, type CheckCapacities } from './capacities.ts';
export { servedAs } from './blob-types.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { filesModule } from './module.ts';
