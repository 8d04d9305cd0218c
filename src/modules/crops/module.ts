// The crops module's contract (src/modules/contract.ts): crops of a project's work zones and
// their covers (signed and checked by the files module), their repository, API 2's routes,
// their events and error codes.
import { defineModule } from '../contract.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { FilesRepos } from '../../core/ports/file-repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { ProjectAccess } from '../projects/index.ts';
import type { Files } from '../files/index.ts';
import { createCrops, type Crops } from './core/crops.ts';
import type { CropsRepos } from './core/ports.ts';
import type { CropEventType } from './core/events.ts';
import { CROP_ERROR_CODES } from './core/errors.ts';
import { cropsRepo } from './postgres/crops.ts';
import { cropRoutes } from './http/api2.ts';
import { CROP_OPERATIONS } from './http/operations.ts';
import type { WorkzonesRepos } from '../workzones/index.ts';

export interface CropsNeeds {
  store: Store<Repos & FilesRepos & WorkzonesRepos & CropsRepos>;
  clock: Clock;
  ids: Ids;
  projectAccess: ProjectAccess;
  files: Files;
}

/** No cache holds crops (each read goes to the database): their events make nothing stale. */
const { nothing } = invalidationRules;

export const cropsModule = defineModule<CropsNeeds, { crops: Crops }, CropsRepos, CropEventType, keyof typeof CROP_ERROR_CODES>({
  name: 'crops',
  feature: {
    name: 'crops',
    create: ({ store, clock, ids, projectAccess, files }) => ({
      offers: { crops: createCrops({ store, clock, ids, access: projectAccess, files }) },
    }),
  },
  repositories: { crops: cropsRepo },
  routes: { api2: cropRoutes },
  operations: { api2: CROP_OPERATIONS },
  invalidation: { 'crop.created': nothing, 'crop.updated': nothing, 'crop.deleted': nothing },
  errorCodes: CROP_ERROR_CODES,
});
