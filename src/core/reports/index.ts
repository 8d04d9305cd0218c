// The reports module: API 1's reports (projects last accessed, users last activity).
// Offers: Reports. Needs: the store, the authorizer.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createReports } from './reports.ts';
export type { Reports } from './reports.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { reportsModule } from './module.ts';
