// The members module's descriptor (src/core/modules.ts).
import type { GroupsRepos } from '../../modules/groups/index.ts';
import type { FeatureModule } from '../modules.ts';
import type { Repos, Store } from '../ports/repositories.ts';
import type { RolesRepos } from '../../modules/roles/index.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { ProjectAccess } from '../projects/index.ts';
import type { SendMail } from '../mail/index.ts';
import type { InviteLimits } from '../users/index.ts';
import { createMembers, type Members } from './members.ts';

export interface MembersNeeds {
  /** The roles and groups modules' repositories too: a member's role is one of the account's roles, a group member one of its groups. */
  store: Store<Repos & RolesRepos & GroupsRepos>;
  clock: Clock;
  ids: Ids;
  projectAccess: ProjectAccess;
  sendMail: SendMail;
  config: { publicUrl: string; invitations: InviteLimits };
}

export const membersModule: FeatureModule<MembersNeeds, { members: Members }> = {
  name: 'members',
  create: ({ store, clock, ids, projectAccess, sendMail, config }) => ({
    offers: { members: createMembers({ store, clock, ids, access: projectAccess, sendMail, publicUrl: config.publicUrl, limits: config.invitations }) },
  }),
};
