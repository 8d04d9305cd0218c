// The measurements module's descriptor (src/core/modules.ts): the vendor's listing and our
// writes of distance, polyline, area and height measurements (docs/annotations.md).
import type { FeatureModule } from '../../core/modules.ts';
import type { Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { ProjectAccess } from '../../core/projects/index.ts';
import { createMeasurements, type Measurements } from './core/measurements.ts';

export interface MeasurementsNeeds {
  store: Store;
  clock: Clock;
  ids: Ids;
  projectAccess: ProjectAccess;
}

export const measurementsModule: FeatureModule<MeasurementsNeeds, { measurements: Measurements }> = {
  name: 'measurements',
  create: ({ store, clock, ids, projectAccess }) => ({
    offers: { measurements: createMeasurements({ store, clock, ids, access: projectAccess }) },
  }),
};
