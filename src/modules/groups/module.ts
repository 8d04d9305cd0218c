// The groups module's contract (src/modules/contract.ts): the user groups of an account, their
// repository, API 1's and API 2's routes, their events (with the caches they make stale) and
// error codes.
import { defineModule } from '../contract.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { Authorizer } from '../../core/permissions/authorizer.ts';
import { cacheScope } from '../../core/events/invalidation.ts';
import { createGroups, type Groups } from './core/groups.ts';
import type { GroupsRepos } from './core/ports.ts';
import type { MembersRepos } from '../members/index.ts';
import type { GroupEventType } from './core/events.ts';
import { GROUP_ERROR_CODES } from './core/errors.ts';
import { groupsRepo } from './postgres/groups-repo.ts';
import { groupRoutes as api1Groups } from './http/api1.ts';
import { groupRoutes as api2Groups } from './http/api2.ts';
import { GROUP_API1_OPERATIONS, GROUP_API2_OPERATIONS } from './http/operations.ts';
import type { AccountsRepos } from '../accounts/index.ts';

export interface GroupsNeeds {
  /** The members module's repository too: a deleted group leaves every project it was a member of. */
  store: Store<Repos & AccountsRepos & MembersRepos & GroupsRepos>;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
}

/** Groups carry project access: every access fact of the account is re-read. */
const account = (e: { accountId: string | null }) => (e.accountId ? [cacheScope.account(e.accountId)] : []);
/** …and, when members come or go (or the group goes), the account's project lists. */
const accountAndLists = (e: { accountId: string | null }) => (e.accountId ? [cacheScope.account(e.accountId), cacheScope.projectLists(e.accountId)] : []);

export const groupsModule = defineModule<GroupsNeeds, { groups: Groups }, GroupsRepos, GroupEventType, keyof typeof GROUP_ERROR_CODES>({
  name: 'groups',
  feature: {
    name: 'groups',
    create: ({ store, clock, ids, authorizer }) => ({ offers: { groups: createGroups({ store, clock, ids, authorizer }) } }),
  },
  repositories: { groups: groupsRepo },
  routes: { api1: api1Groups, api2: api2Groups },
  operations: { api1: GROUP_API1_OPERATIONS, api2: GROUP_API2_OPERATIONS },
  invalidation: {
    // A group's own fields show in no list; a new group has no members and no project.
    'group.created': account,
    'group.updated': account,
    'group.deleted': accountAndLists,
    'group.member-added': accountAndLists,
    'group.member-removed': accountAndLists,
  },
  errorCodes: GROUP_ERROR_CODES,
});
