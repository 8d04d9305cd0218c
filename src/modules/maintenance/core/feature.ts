// The maintenance module's descriptor (src/core/modules.ts): the janitor and its periodic pass.
import type { FeatureModule } from '../../../core/modules.ts';
import type { Store } from '../../../core/ports/repositories.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import { createJanitor, housekeeping, type Janitor, type Retention } from './janitor.ts';

export interface MaintenanceNeeds {
  store: Store;
  clock: Clock;
  config: { retention: Retention };
}

export const maintenanceFeature: FeatureModule<MaintenanceNeeds, { janitor: Janitor }> = {
  name: 'maintenance',
  create: ({ store, clock, config }) => {
    const janitor = createJanitor({ store, clock, retention: config.retention });
    return { offers: { janitor }, tasks: [housekeeping(janitor)] };
  },
};
