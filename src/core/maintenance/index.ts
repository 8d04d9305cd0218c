// The maintenance module: housekeeping of rows no rule needs any more (docs/operations.md).
// Offers: Janitor and its task. Needs: the store, the clock, the retention settings.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createJanitor, DEFAULT_RETENTION, housekeeping, JANITOR, purgeCutoffs } from './janitor.ts';
export type { Janitor, JanitorResult, Retention } from './janitor.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { maintenanceModule } from './module.ts';
