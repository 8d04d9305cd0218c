// The maintenance module's contract (src/modules/contract.ts): the janitor and its periodic
// pass. Its deletions go through the kernel's admin repository (shared with the operator's reset).
import { defineModule } from '../contract.ts';
import { maintenanceFeature, type MaintenanceNeeds } from './core/feature.ts';
import type { Janitor } from './core/janitor.ts';

export const maintenanceModule = defineModule<MaintenanceNeeds, { janitor: Janitor }>({
  name: 'maintenance',
  feature: maintenanceFeature,
  settings: [
    // Read by src/config.ts (retention), documented in the README's configuration table.
    { env: 'RETENTION_DAYS', does: 'days done and failed jobs, outbox rows and domain events are kept (1-36500)', default: '30' },
    { env: 'RETENTION_BATCH', does: 'the most rows of each kind one housekeeping pass deletes', default: '10000' },
  ],
});
