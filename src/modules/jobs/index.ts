// The jobs module: the background job runner each job-owning module registers its handlers with.
// Offers: JobRunner. Needs: the store, the clock, ids, the handlers.
// Other modules, src/http and the wiring import it through this file (and the module list
// through module.ts) only (eslint.config.js).
export { createJobRunner, LEASE_MS } from './core/job-runner.ts';
export type { JobHandler, JobRunner } from './core/job-runner.ts';
export type { JobsRepo, JobsRepos } from './core/ports.ts';
export type { JobEventType } from './core/events.ts';
