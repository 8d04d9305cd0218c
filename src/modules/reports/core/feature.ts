// The reports module's descriptor (src/core/modules.ts): its use cases from the store's
// reports repository and the authorizer.
import type { FeatureModule } from '../../../core/modules.ts';
import type { Authorizer } from '../../../core/permissions/authorizer.ts';
import type { ReportsRepo } from './ports.ts';
import { createReports, type Reports } from './reports.ts';

export interface ReportsNeeds {
  store: { readonly repos: { reports: ReportsRepo } };
  authorizer: Authorizer;
}

export const reportsFeature: FeatureModule<ReportsNeeds, { reports: Reports }> = {
  name: 'reports',
  create: ({ store, authorizer }) => ({ offers: { reports: createReports({ store, authorizer }) } }),
};
