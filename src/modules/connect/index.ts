// The connect module's public face: connect import and export jobs (docs/connect.md).
export type { ConnectJobs, ConnectJobView } from './core/connect-jobs.ts';
export type { ConnectRepo } from './core/ports.ts';
