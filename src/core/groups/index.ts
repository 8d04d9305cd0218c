// The groups module: user groups of an account.
// Offers: Groups. Needs: the store, the clock, ids, the authorizer.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createGroups } from './groups.ts';
export type { GroupInput, Groups } from './groups.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { groupsModule } from './module.ts';
