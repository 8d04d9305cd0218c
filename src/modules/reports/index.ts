// The reports module's public face: API 1's reports (projects last accessed, users last
// activity), and the repository the activity module writes the users' activity dates with.
export type { Reports } from './core/reports.ts';
export type { ProjectLastAccessRow, ReportsRepo, UserLastActivityRow } from './core/ports.ts';
