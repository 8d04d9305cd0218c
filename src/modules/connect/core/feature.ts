// The connect module's descriptor (src/core/modules.ts).
import type { FeatureModule } from '../../../core/modules.ts';
import type { Repos, Store } from '../../../core/ports/repositories.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { ConnectRepo } from './ports.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { ObjectStore } from '../../../core/ports/object-store.ts';
import type { ProjectAccess } from '../../projects/index.ts';
import type { UsageRecorder } from '../../usage/index.ts';
import type { Files } from '../../files/index.ts';
import { createConnectJobs, type ConnectJobs } from './connect-jobs.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

export interface ConnectNeeds {
  store: Store<Repos & FilesRepos & AccountsRepos & WorkzonesRepos & { connect: ConnectRepo }>;
  clock: Clock;
  ids: Ids;
  objectStore: ObjectStore;
  projectAccess: ProjectAccess;
  files: Files;
  usageRecorder: UsageRecorder;
  config: { publicUrl: string };
}

export const connectFeature: FeatureModule<ConnectNeeds, { connectJobs: ConnectJobs }> = {
  name: 'connect',
  create: ({ store, clock, ids, objectStore, projectAccess, files, usageRecorder, config }) => ({
    offers: { connectJobs: createConnectJobs({ store, clock, ids, access: projectAccess, files, objectStore, usage: usageRecorder, publicUrl: config.publicUrl }) },
  }),
};
