// The groups module's descriptor (src/core/modules.ts).
import type { FeatureModule } from '../modules.ts';
import type { Store } from '../ports/repositories.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { Authorizer } from '../permissions/authorizer.ts';
import { createGroups, type Groups } from './groups.ts';

export interface GroupsNeeds {
  store: Store;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
}

export const groupsModule: FeatureModule<GroupsNeeds, { groups: Groups }> = {
  name: 'groups',
  create: ({ store, clock, ids, authorizer }) => ({ offers: { groups: createGroups({ store, clock, ids, authorizer }) } }),
};
