// The connect module's contract (src/modules/contract.ts): connect import and export jobs,
// their repository, API 1's starts, the /connect/{slug} surface, and their events.
import { defineModule } from '../contract.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import { connectFeature, type ConnectNeeds } from './core/feature.ts';
import type { ConnectJobs } from './core/connect-jobs.ts';
import type { ConnectRepo } from './core/ports.ts';
import type { ConnectEventType } from './core/events.ts';
import { connectRepo } from './postgres/connect.ts';
import { connectRoutes } from './http/api1.ts';
import { connectJobRoutes } from './http/job-surface.ts';
import { CONNECT_OPERATIONS } from './http/operations.ts';


const { nothing } = invalidationRules;
export const connectModule = defineModule<ConnectNeeds, { connectJobs: ConnectJobs }, { connect: ConnectRepo }, ConnectEventType>({
  name: 'connect',
  feature: connectFeature,
  repositories: { connect: connectRepo },
  // /connect/{slug}: a connect job's own surface.
  routes: { api1: connectRoutes, other: { plugin: connectJobRoutes } },
  operations: { api1: CONNECT_OPERATIONS },
  // No cache holds a connect job.
  invalidation: { 'connect-job.created': nothing, 'connect-job.received': nothing },
});
