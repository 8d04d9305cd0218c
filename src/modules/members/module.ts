// The members module's contract (src/modules/contract.ts): project membership and its
// per-work-zone access, its repository, API 2's routes, their operation docs, its events
// (with the caches they make stale) and error codes.
import { defineModule } from '../contract.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { GroupsRepos } from '../groups/index.ts';
import type { RolesRepos } from '../roles/index.ts';
import type { ProjectAccess } from '../projects/index.ts';
import type { SendMail, MailRepos } from '../mail/index.ts';
import type { InviteLimits, UsersRepos } from '../users/index.ts';
import { createMembers, type Members } from './core/members.ts';
import type { MembersRepos } from './core/ports.ts';
import type { MemberEventType } from './core/events.ts';
import { MEMBER_ERROR_CODES } from './core/errors.ts';
import { membersRepo } from './postgres/members-repo.ts';
import { memberRoutes } from './http/api2.ts';
import { MEMBER_API2_OPERATIONS } from './http/operations.ts';
import type { WorkzonesRepos } from '../workzones/index.ts';
import type { AccountsRepos } from '../accounts/index.ts';

export interface MembersNeeds {
  /** The roles and groups modules' repositories too: a member's role is one of the account's roles, a group member one of its groups. */
  store: Store<Repos & AccountsRepos & WorkzonesRepos & MembersRepos & RolesRepos & GroupsRepos & MailRepos & UsersRepos>;
  clock: Clock;
  ids: Ids;
  projectAccess: ProjectAccess;
  sendMail: SendMail;
  config: { publicUrl: string; invitations: InviteLimits };
}

/** A member's grants are materialised per zone: the project's access facts and the account's project lists. */
const { project, withLists } = invalidationRules;
const projectAndLists = withLists(project);

export const membersModule = defineModule<MembersNeeds, { members: Members }, MembersRepos, MemberEventType, keyof typeof MEMBER_ERROR_CODES>({
  name: 'members',
  feature: {
    name: 'members',
    create: ({ store, clock, ids, projectAccess, sendMail, config }) => ({
      offers: { members: createMembers({ store, clock, ids, access: projectAccess, sendMail, publicUrl: config.publicUrl, limits: config.invitations }) },
    }),
  },
  repositories: { members: membersRepo },
  routes: { api2: memberRoutes },
  operations: { api2: MEMBER_API2_OPERATIONS },
  invalidation: {
    'member.added': projectAndLists,
    'member.removed': projectAndLists,
    'member.access-removed': projectAndLists,
  },
  errorCodes: MEMBER_ERROR_CODES,
});
