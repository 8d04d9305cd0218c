// The values module's contract (src/modules/contract.ts): the values lists of API 2. It
// needs nothing but the EPSG dataset, and offers the lists and the spatial-reference check
// the projects module applies to a project's spatialReference.
import { defineModule } from '../contract.ts';
import { createValuesLists, type ValuesLists } from './core/values.ts';
import { epsgIndexCatalogue } from './adapters/epsg-index.ts';
import { valuesRoutes } from './http/api2.ts';
import { VALUES_OPERATIONS } from './http/operations.ts';

export const valuesModule = defineModule<Record<never, never>, { valuesLists: ValuesLists }>({
  name: 'values',
  feature: {
    name: 'values',
    create: () => ({ offers: { valuesLists: createValuesLists(epsgIndexCatalogue) } }),
  },
  routes: { api2: valuesRoutes },
  operations: { api2: VALUES_OPERATIONS },
});
