// The maintenance module's contract (src/modules/contract.ts): the janitor and its periodic
// pass. Its deletions go through the kernel's admin repository (shared with the operator's reset).
import { defineModule, type SettingsOf } from '../contract.ts';
import { maintenanceSettings } from './settings.ts';
import { maintenanceFeature, type MaintenanceNeeds } from './core/feature.ts';
import type { Janitor } from './core/janitor.ts';

export const maintenanceModule = defineModule<MaintenanceNeeds, { janitor: Janitor }, Record<never, never>, never, never, SettingsOf<typeof maintenanceSettings>>({
  name: 'maintenance',
  feature: maintenanceFeature,
  settings: maintenanceSettings,
});
