// The workzones module: work zones of a project, and their copy (a job).
// Offers: Workzones, WorkzoneCopy (its job handler included). Needs: project access, the
// job runner, the files module's copy, send-mail.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createWorkzones } from './workzones.ts';
export type { WorkzoneView, Workzones } from './workzones.ts';
export { COPY_JOB, createWorkzoneCopy } from './copy.ts';
export type { CopyInput, CopyStatus, WorkzoneCopy } from './copy.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { workzonesModule } from './module.ts';
