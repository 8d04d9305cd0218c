// The reports module's descriptor (src/core/modules.ts).
import type { FeatureModule } from '../modules.ts';
import type { Store } from '../ports/repositories.ts';
import type { Authorizer } from '../permissions/authorizer.ts';
import { createReports, type Reports } from './reports.ts';

export const reportsModule: FeatureModule<{ store: Store; authorizer: Authorizer }, { reports: Reports }> = {
  name: 'reports',
  create: ({ store, authorizer }) => ({ offers: { reports: createReports({ store, authorizer }) } }),
};
