// The connect module's descriptor (src/core/modules.ts).
import type { FeatureModule } from '../modules.ts';
import type { Store } from '../ports/repositories.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { ObjectStore } from '../ports/object-store.ts';
import type { ProjectAccess } from '../projects/index.ts';
import type { Files } from '../files/index.ts';
import { createConnectJobs, type ConnectJobs } from './connect-jobs.ts';

export interface ConnectNeeds {
  store: Store;
  clock: Clock;
  ids: Ids;
  objectStore: ObjectStore;
  projectAccess: ProjectAccess;
  files: Files;
  config: { publicUrl: string };
}

export const connectModule: FeatureModule<ConnectNeeds, { connectJobs: ConnectJobs }> = {
  name: 'connect',
  create: ({ store, clock, ids, objectStore, projectAccess, files, config }) => ({
    offers: { connectJobs: createConnectJobs({ store, clock, ids, access: projectAccess, files, objectStore, publicUrl: config.publicUrl }) },
  }),
};
