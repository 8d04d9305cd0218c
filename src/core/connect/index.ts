// The connect module: connect import and export jobs (docs/connect.md).
// Offers: ConnectJobs. Needs: the files module, project access, the ObjectStore.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createConnectJobs } from './connect-jobs.ts';
export type { ConnectJobs, ConnectJobView } from './connect-jobs.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { connectModule } from './module.ts';
