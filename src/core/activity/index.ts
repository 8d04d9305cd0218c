// The activity module: last-access dates of projects and users (API 1's reports).
// Offers: Activity. Needs: the store, the clock, a logger for failed date writes.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createActivity } from './activity.ts';
export type { Activity } from './activity.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { activityModule } from './module.ts';
