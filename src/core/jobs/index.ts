// The jobs module: the background job runner each job-owning module registers its handlers with.
// Offers: JobRunner. Needs: the store, the clock, ids, the handlers.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createJobRunner, LEASE_MS } from './job-runner.ts';
export type { JobHandler, JobRunner } from './job-runner.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { jobsModule } from './module.ts';
