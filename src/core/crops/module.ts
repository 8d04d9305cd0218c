// The crops module's descriptor (src/core/modules.ts).
import type { FeatureModule } from '../modules.ts';
import type { Store } from '../ports/repositories.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { ProjectAccess } from '../projects/index.ts';
import type { Files } from '../files/index.ts';
import { createCrops, type Crops } from './crops.ts';

export interface CropsNeeds {
  store: Store;
  clock: Clock;
  ids: Ids;
  projectAccess: ProjectAccess;
  files: Files;
}

export const cropsModule: FeatureModule<CropsNeeds, { crops: Crops }> = {
  name: 'crops',
  create: ({ store, clock, ids, projectAccess, files }) => ({
    offers: { crops: createCrops({ store, clock, ids, access: projectAccess, files }) },
  }),
};
