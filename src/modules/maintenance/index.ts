// The maintenance module's public face: housekeeping of rows no rule needs any more
// (docs/operations.md "Housekeeping").
export { DEFAULT_RETENTION, JANITOR, purgeCutoffs } from './core/janitor.ts';
export type { Janitor, JanitorResult, Retention } from './core/janitor.ts';
