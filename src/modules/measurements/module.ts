// The measurements module's contract (src/modules/contract.ts): the vendor's listing and our
// writes of distance, polyline, area and height measurements (docs/annotations.md).
import { defineModule } from '../contract.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { FilesRepos } from '../../core/ports/file-repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { ProjectAccess } from '../projects/index.ts';
import { createMeasurements, type Measurements } from './core/measurements.ts';
import type { MeasurementsRepos } from './core/ports.ts';
import { MEASUREMENT_ERROR_CODES } from './core/errors.ts';
import type { MeasurementEvent } from './core/events.ts';
import { measurementsRepo } from './postgres/measurements-repo.ts';
import { measurementRoutes } from './http/api2.ts';
import { MEASUREMENT_OPERATIONS } from './http/operations.ts';
import type { WorkzonesRepos } from '../workzones/index.ts';

export interface MeasurementsNeeds {
  store: Store<Repos & FilesRepos & WorkzonesRepos & MeasurementsRepos>;
  clock: Clock;
  ids: Ids;
  projectAccess: ProjectAccess;
}

/** No cache holds measurements: their events make nothing stale. */
const { nothing } = invalidationRules;

export const measurementsModule = defineModule<MeasurementsNeeds, { measurements: Measurements }, MeasurementsRepos, MeasurementEvent, keyof typeof MEASUREMENT_ERROR_CODES>({
  name: 'measurements',
  feature: {
    name: 'measurements',
    create: ({ store, clock, ids, projectAccess }) => ({
      offers: { measurements: createMeasurements({ store, clock, ids, access: projectAccess }) },
    }),
  },
  repositories: { measurements: measurementsRepo },
  routes: { api2: measurementRoutes },
  operations: { api2: MEASUREMENT_OPERATIONS },
  invalidation: { 'measurement.created': nothing, 'measurement.updated': nothing, 'measurement.deleted': nothing },
  errorCodes: MEASUREMENT_ERROR_CODES,
});
