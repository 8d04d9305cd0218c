// The maintenance module's descriptor (src/core/modules.ts): the janitor and its periodic pass.
import type { FeatureModule } from '../modules.ts';
import type { Store } from '../ports/repositories.ts';
import type { Clock } from '../ports/clock.ts';
import { createJanitor, housekeeping, type Janitor, type Retention } from './janitor.ts';

export interface MaintenanceNeeds {
  store: Store;
  clock: Clock;
  config: { retention: Retention };
}

export const maintenanceModule: FeatureModule<MaintenanceNeeds, { janitor: Janitor }> = {
  name: 'maintenance',
  create: ({ store, clock, config }) => {
    const janitor = createJanitor({ store, clock, retention: config.retention });
    return { offers: { janitor }, tasks: [housekeeping(janitor)] };
  },
};
