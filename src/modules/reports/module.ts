// The reports module's contract (src/modules/contract.ts): API 1's account reports.
import { defineModule } from '../contract.ts';
import type { ReportsRepo } from './core/ports.ts';
import { reportsFeature, type ReportsNeeds } from './core/feature.ts';
import type { Reports } from './core/reports.ts';
import { reportsRepo } from './postgres/reports.ts';
import { reportRoutes } from './http/api1.ts';
import { REPORTS_OPERATIONS } from './http/operations.ts';

export const reportsModule = defineModule<ReportsNeeds, { reports: Reports }, { reports: ReportsRepo }>({
  name: 'reports',
  feature: reportsFeature,
  repositories: { reports: reportsRepo },
  routes: { api1: reportRoutes },
  operations: { api1: REPORTS_OPERATIONS },
});
